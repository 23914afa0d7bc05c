/**
 * createEngine's build from records at a bench size (issue 16, fast start), A/B in one
 * process: the venues are read from the bench NDJSON once, then builds (validate: false) of
 * this tree's createEngine and, with a second argument, of another compiled tree's (a copy
 * of .tmp/bench-dist made before a change) alternate, each after a full collection. Prints
 * each build's wall time, user and system CPU time and minor page faults (the build's fresh
 * memory is faulted in by the kernel: system time), then the medians of wall and CPU time
 * (on a shared machine the wall time includes waiting for a core: compare CPU time too).
 *
 *   npx tsc -p tsconfig.bench.json && node --expose-gc .tmp/bench-dist/bench/diag/start-build.js N [BASE_DIST|-] [rounds] [after-read]
 *   (BASE_DIST: a copy of .tmp/bench-dist inside the repository, so its packages resolve: cp -r .tmp/bench-dist .tmp/bench-base before the change)
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { readVenues } from '../../src/data/read-venues.js';
import { createEngine } from '../../src/engine.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { benchVenueFile } from '../lib/dataset.js';

type Build = (venues: readonly VenueRecord[], options: { validate: boolean }) => { size: number };

const n = Number(process.argv[2] ?? 100_000);
const baseDir = process.argv[3] && process.argv[3] !== '-' ? resolve(process.argv[3]) : null;
const rounds = Number(process.argv[4] ?? 4);
/** `after-read`: the first build runs right after the read, without a collection first (as in the bench's load group). */
const afterRead = process.argv[5] === 'after-read';
const builds: [string, Build][] = [['this', createEngine]];
if (baseDir !== null) {
  const base = (await import(pathToFileURL(`${baseDir}/src/engine.js`).href)) as { createEngine: Build };
  builds.unshift(['base', base.createEngine]);
}
const { venues } = await readVenues(await benchVenueFile(n));
const gc = (globalThis as { gc?: () => void }).gc;
const times = new Map<string, number[]>(builds.map(([name]) => [name, []]));
const cpuTimes = new Map<string, number[]>(builds.map(([name]) => [name, []]));
let built = 0;
for (let r = 0; r < rounds; r++) {
  for (const [name, build] of r % 2 === 0 ? builds : [...builds].reverse()) {
    if (!(afterRead && built === 0)) gc?.();
    built++;
    const cpu0 = process.cpuUsage();
    const faults0 = process.resourceUsage().minorPageFault;
    const t0 = performance.now();
    const engine = build(venues, { validate: false });
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    if (engine.size !== venues.length) throw new Error(`${name}: ${engine.size} venues built of ${venues.length}`);
    times.get(name)!.push(ms);
    cpuTimes.get(name)!.push((cpu.user + cpu.system) / 1000);
    console.log(
      `round ${r} ${name}: ${ms.toFixed(0)} ms (user ${(cpu.user / 1000).toFixed(0)} ms, system ${(cpu.system / 1000).toFixed(0)} ms, ` +
        `minor page faults ${process.resourceUsage().minorPageFault - faults0})`,
    );
  }
}
const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]!;
for (const [name, t] of times) {
  const cpu = cpuTimes.get(name)!;
  console.log(`createEngine ${n} ${name}: median ${median(t).toFixed(0)} ms of ${t.map((x) => x.toFixed(0)).join(', ')}; CPU (user + system) median ${median(cpu).toFixed(0)} ms`);
}
