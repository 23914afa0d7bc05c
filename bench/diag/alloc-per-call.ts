/**
 * Bytes allocated per search, by function: V8's sampling heap profiler (every object kept,
 * including those freed by minor and major collections before the profile is read) over
 * `calls` searches of one kind after a warm-up, on the bench's town-centre data.
 *
 *   npx tsc -p tsconfig.bench.json && node .tmp/bench-dist/bench/diag/alloc-per-call.js [N=300000] [kind=point-hard] [calls=2000]
 *
 * kind: point-soft | point-hard | min-max | min-total | path. Prints KB per call in all and
 * the functions allocating most (self, KB per call). Sampling: one sample per 256 bytes on
 * average, so figures under ~0.1 KB per call are noise.
 */
import { Session } from 'node:inspector/promises';
import { createEngine } from '../../src/engine.js';
import { benchVenues } from '../lib/dataset.js';
import { NOW, PREFS, cityRoutes, pathBody, pointBody, pointCentres } from '../lib/queries.js';
import { fairGroups } from '../workloads/fair.js';

interface ProfileNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: ProfileNode[];
}

const n = Number(process.argv[2] ?? 300_000);
const kind = process.argv[3] ?? 'point-hard';
const calls = Number(process.argv[4] ?? 2000);

function bodiesOf(which: string): object[] {
  switch (which) {
    case 'point-soft':
      return pointCentres().map((c) => pointBody(c, 1000, { ...PREFS, nonCompromise: [] }));
    case 'point-hard':
      return pointCentres().map((c) => pointBody(c, 1000, PREFS));
    case 'min-max':
    case 'min-total': {
      const fairness = which === 'min-max' ? 'MIN_MAX' : 'MIN_TOTAL';
      return fairGroups().map((g) => ({ locations: g, mode: { mode: 'POINT', maxDistance: 4000, fairness } }));
    }
    case 'path':
      return cityRoutes().map((r) => pathBody(r, 100));
    default:
      throw new Error(`kind: expected point-soft, point-hard, min-max, min-total or path, got ${JSON.stringify(which)}`);
  }
}

const engine = createEngine(benchVenues(n, 'town-centres'), { validate: false }).warm();
const bodies = bodiesOf(kind);
let sink = 0;
const run = (count: number) => {
  for (let i = 0; i < count; i++) sink += engine.search(bodies[i % bodies.length]!, { limit: 20, now: NOW }).totalResults;
};
run(3000); // warm: optimised code, scratch sized

const session = new Session();
session.connect();
await session.post('HeapProfiler.startSampling', { samplingInterval: 256, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
run(calls);
const { profile } = (await session.post('HeapProfiler.stopSampling')) as unknown as { profile: { head: ProfileNode } };
session.disconnect();

const bySite = new Map<string, number>();
let total = 0;
(function visit(node: ProfileNode) {
  if (node.selfSize > 0) {
    const f = node.callFrame;
    const site = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/bench-dist\//, '')}:${f.lineNumber + 1}`;
    bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize);
    total += node.selfSize;
  }
  for (const child of node.children) visit(child);
})(profile.head);

console.log(`${kind}, ${n} venues, ${calls} calls: ${(total / calls / 1024).toFixed(1)} KB per call (sink ${sink})`);
for (const [site, bytes] of [...bySite].sort((a, b) => b[1] - a[1]).slice(0, 15)) {
  console.log(`${(bytes / calls / 1024).toFixed(2).padStart(8)} KB  ${site}`);
}
