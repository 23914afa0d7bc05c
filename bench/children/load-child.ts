/**
 * Load generator child (bench/workloads/scale-out.ts): autocannon in its own process, so the
 * service's processes and the load generator are separate OS processes (the CPU split is
 * stated by the workload). argv[2] is a JSON file: `{url, connections, seconds, requests}`
 * (`requests`: autocannon request objects, cycled). Prints one JSON line.
 */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

const spec = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as {
  url: string;
  connections: number;
  seconds: number;
  requests: { method: 'POST'; path: string; headers: Record<string, string>; body: string }[];
};
const r = (await (autocannon({ url: spec.url, connections: spec.connections, duration: spec.seconds, requests: spec.requests }) as unknown as Promise<autocannon.Result>));
process.stdout.write(
  `${JSON.stringify({ requests: r.requests.total, ok: r['2xx'], non2xx: r.non2xx, errors: r.errors, seconds: r.duration, p50Ms: r.latency.p50, p99Ms: r.latency.p99 })}\n`,
);
