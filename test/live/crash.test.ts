// Crash test of live data: a real service process (`venue-search serve --admin-token-file
// --live-dir --compact-after 400`, the compiled command: support/live-server-fixture.ts) takes a
// stream of PUT /admin/venues batches (and some DELETEs), with compactions in a worker
// along the way, and is killed with SIGKILL at a random moment, 20 times. After each kill
// the service's start path (LiveVenues.open: base + change log replay) must show every
// acknowledged batch whole, and every unacknowledged one whole or not at all; then the
// real server is started again on the same files for the next round.
// The service starts from a snapshot of the fixtures, as an operator serves one (20 starts:
// test/support/fixtures-snapshot.ts). Compactions write their own snapshot in the live
// directory, so every base of the test is a snapshot.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadFixtureVenues } from '../search/support.js';
import { seeded } from './change-stream.js';
import { liveServerFixture } from './support/live-server-fixture.js';

const TOKEN = 'crash-test-operator-token-42';
const server = liveServerFixture('live-crash-', TOKEN);

interface Sent {
  readonly kind: 'put' | 'delete';
  readonly ids: string[];
  /** The name every record of a PUT batch carries (tells this batch's version apart). */
  readonly name: string;
  acked: boolean;
}

describe('live data: SIGKILL during a stream of admin batches', () => {
  it('keeps every acknowledged batch and applies others all or nothing, over 20 kills', async () => {
    const liveDir = join(server.tmp, 'live');
    const rnd = seeded(20_26);
    const present = new Map<string, string>(loadFixtureVenues().map((r) => [r.id, r.name])); // id -> name known to be there
    const absent = new Set<string>();
    let acked = 0;
    let unackedWhole = 0;
    let unackedAbsent = 0;
    for (let round = 0; round < 20; round++) {
      const { child, base } = await server.start(liveDir, 400);
      const sent: Sent[] = [];
      let stop = false;
      const auth = { authorization: `Bearer ${TOKEN}` };
      const client = async (lane: number): Promise<void> => {
        for (let b = 0; !stop; b++) {
          const removable = [...present.keys()].filter((id) => id.startsWith('c'));
          if (rnd() < 0.15 && removable.length > 0) {
            const id = removable[Math.floor(rnd() * removable.length)]!;
            present.delete(id); // not known any more until the check decides
            const s: Sent = { kind: 'delete', ids: [id], name: '', acked: false };
            sent.push(s);
            const res = await fetch(`${base}/admin/venues/${encodeURIComponent(id)}`, { method: 'DELETE', headers: auth }).catch(() => null);
            if (res?.status === 200) s.acked = true;
            continue;
          }
          const n = 1 + Math.floor(rnd() * 150);
          const name = `Batch ${round}-${lane}-${b}`;
          const ids = Array.from({ length: n }, (_, k) => `c${round}-${lane}-${b}-${k}`);
          const body = ids.map((id, k) => JSON.stringify({ id, name, location: { type: 'Point', coordinates: [51.4 + k * 1e-4, -0.1 - b * 1e-4] }, primaryGenre: 'pub' })).join('\n');
          const s: Sent = { kind: 'put', ids, name, acked: false };
          sent.push(s);
          const res = await fetch(`${base}/admin/venues`, { method: 'PUT', headers: { ...auth, 'content-type': 'application/x-ndjson' }, body }).catch(() => null);
          if (res !== null) {
            expect(res.status).toBe(200);
            s.acked = true;
          }
        }
      };
      const lanes = [client(0), client(1)];
      // Killed at a random moment once the stream is flowing (0..400 ms after the first answer).
      // bounded: a service that answers nothing fails the round with a message, not the test timeout
      for (const waitedFrom = Date.now(); !sent.some((x) => x.acked); await new Promise((r) => setTimeout(r, 5))) {
        if (Date.now() - waitedFrom > 30_000) throw new Error(`round ${round}: no batch acknowledged in 30 s (${sent.length} sent)`);
      }
      await new Promise((r) => setTimeout(r, rnd() * 400));
      child.kill('SIGKILL');
      stop = true;
      await new Promise((r) => child.once('exit', r));
      await Promise.all(lanes);

      // The service's start path over the files the killed process left.
      const live = await server.reopen(liveDir);
      const engine = live.engine;
      for (const s of sent) {
        const there = s.ids.filter((id) => engine.has(id) && (s.kind === 'delete' || engine.basic(id).name === s.name));
        if (s.kind === 'put') {
          if (s.acked) expect(there.length, `acknowledged batch ${s.name}`).toBe(s.ids.length);
          else expect([0, s.ids.length], `unacknowledged batch ${s.name}`).toContain(there.length);
          if (s.acked) acked++;
          else if (there.length === 0) unackedAbsent++;
          else unackedWhole++;
          for (const id of s.ids) {
            if (there.length > 0) present.set(id, s.name);
            else absent.add(id);
          }
        } else {
          const id = s.ids[0]!;
          if (s.acked) expect(engine.has(id), `acknowledged delete of ${id}`).toBe(false);
          if (engine.has(id)) present.set(id, engine.basic(id).name);
          else absent.add(id);
          if (s.acked) acked++;
        }
      }
      // Everything decided in earlier rounds is still as it was.
      for (const [id, name] of present) expect(engine.has(id) && engine.basic(id).name, id).toBe(name);
      for (const id of absent) if (!present.has(id)) expect(engine.has(id), id).toBe(false);
      expect(engine.size).toBe(present.size);
      await live.close();
    }
    expect(acked).toBeGreaterThan(40);
    expect(unackedWhole + unackedAbsent).toBeGreaterThan(0);
  }, 300_000);
});
