/**
 * Diagnosis of the live regime's tail (issue 16): where the call right after a full
 * collection spends its extra time. Profiles (V8 CPU profiler, 10 µs sampling, through
 * node:inspector) two loops over one workload of bench/lib/live-calls.ts, each of `rounds`
 * calls: churn + call (normal), and churn + gc() + call (after gc), and prints per function
 * the self time inside the timed calls of each loop (samples falling in gc() or churn are
 * excluded by taking only samples between markers), largest difference first.
 *
 *   npx tsc -p tsconfig.bench.json && node --expose-gc .tmp/bench-dist/bench/diag/after-gc-profile.js N workload-substring [rounds]
 *
 * Under the heavy lock from 100k.
 */
import { Session } from 'node:inspector';
import { createEngine } from '../../src/engine.js';
import { benchVenues } from '../lib/dataset.js';
import { liveCalls } from '../lib/live-calls.js';
import { churn, collectGarbage } from '../lib/measure.js';

const n = Number(process.argv[2] ?? 300_000);
const only = process.argv[3] ?? 'POINT 1 km +';
const rounds = Number(process.argv[4] ?? 300);
const gen = benchVenues(n, 'spread');
const engine = createEngine(gen, { validate: false }).warm();
gen.length = 0;
const [name, fn] = liveCalls(engine).find(([nm]) => nm.includes(only))!;
let sink = 0;
for (let k = 0; k < 300; k++) sink += fn() + churn(k);

interface ProfileNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; }
interface Profile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; startTime: number; }
const session = new Session();
session.connect();
const post = (method: string, params?: object): Promise<unknown> => new Promise((res, rej) => session.post(method, params ?? {}, (err, r) => (err ? rej(err) : res(r))));
await post('Profiler.enable');
await post('Profiler.setSamplingInterval', { interval: 10 });

/** Self time (µs) per function inside the [t0, t1) windows (profile clock, µs). */
async function profiled(afterGc: boolean): Promise<{ self: Map<string, number>; totalUs: number }> {
  const windows: Array<[number, number]> = [];
  await post('Profiler.start');
  // performance.now() and the profile's timestamps share the monotonic clock only up to an
  // offset: take the windows in hrtime µs, and the profile's in µs since its start below.
  for (let k = 0; k < rounds; k++) {
    sink += churn(k);
    if (afterGc) collectGarbage();
    const t0 = Number(process.hrtime.bigint() / 1000n);
    sink += fn();
    windows.push([t0, Number(process.hrtime.bigint() / 1000n)]);
  }
  const { profile } = (await post('Profiler.stop')) as { profile: Profile };
  const byId = new Map(profile.nodes.map((nd) => [nd.id, nd]));
  const self = new Map<string, number>();
  let t = profile.startTime;
  let w = 0;
  let totalUs = 0;
  for (let s = 0; s < profile.samples.length; s++) {
    const dt = profile.timeDeltas[s]!;
    t += dt;
    while (w < windows.length && windows[w]![1] < t) w++;
    if (w >= windows.length || t < windows[w]![0]) continue;
    const nd = byId.get(profile.samples[s]!)!;
    const key = `${nd.callFrame.functionName || '(anon)'} ${nd.callFrame.url.replace(/.*\/bench-dist\//, '')}:${nd.callFrame.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + dt);
    totalUs += dt;
  }
  return { self, totalUs };
}
const normal = await profiled(false);
const after = await profiled(true);
console.log(`# ${name}, ${rounds} calls each; profiled time inside calls: normal ${(normal.totalUs / rounds).toFixed(0)} µs/call, after gc ${(after.totalUs / rounds).toFixed(0)} µs/call`);
const keys = new Set([...normal.self.keys(), ...after.self.keys()]);
const rows = [...keys].map((k) => [k, (normal.self.get(k) ?? 0) / rounds, (after.self.get(k) ?? 0) / rounds] as const).sort((a, b) => b[2] - b[1] - (a[2] - a[1]));
for (const [k, a, b] of rows.slice(0, 30)) console.log(`${(b - a).toFixed(1).padStart(7)} µs/call more after gc (${a.toFixed(1)} -> ${b.toFixed(1)})  ${k}`);
console.log(`# sink ${sink}`);
