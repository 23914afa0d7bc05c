// A live service whose disk fills up (audit 59e): the change log must never acknowledge a
// batch it wrote only in part, must not leave a torn line for the next batch to follow, and
// a compaction that cannot write its base must leave no partial file and say why.
// The service process runs with a file size limit (`ulimit -f`): a write that crosses it is
// short and the next one fails (EFBIG), as writes on a full disk do (short, then ENOSPC).
// Oracle: the batches the client saw acknowledged, read back by the service's start path
// (LiveVenues.open, a fresh process's view of the files) and by the log reader.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readLog } from '../../src/changelog/change-log.js';
import { liveServerFixture } from './support/live-server-fixture.js';

const TOKEN = 'disk-full-operator-token-42';
const server = liveServerFixture('live-disk-full-', TOKEN);
/** Half the fixtures' snapshot: the log's first batches fit under it, a compacted base does not. */
const LIMIT_BYTES = Math.floor(statSync(server.baseSnapshot).size / 2 / 512) * 512;
const AUTH = { authorization: `Bearer ${TOKEN}` };

/** A PUT body of `n` venues named `name` (about 190 bytes a venue in the log). */
function batch(name: string, n: number): { ids: string[]; body: string } {
  const ids = Array.from({ length: n }, (_, k) => `${name.replace(/ /g, '-')}-${k}`);
  const body = ids.map((id, k) => JSON.stringify({ id, name, location: { type: 'Point', coordinates: [51.45 + k * 1e-5, -0.12] }, primaryGenre: 'pub' })).join('\n');
  return { ids, body };
}

async function put(base: string, body: string): Promise<{ status: number; answer: { code?: string; message?: string } }> {
  const res = await fetch(`${base}/admin/venues`, { method: 'PUT', headers: { ...AUTH, 'content-type': 'application/x-ndjson' }, body });
  return { status: res.status, answer: (await res.json()) as { code?: string; message?: string } };
}

describe('live data on a disk that fills up', () => {
  it('refuses the batch that does not fit with a 503 naming the cause, keeps nothing of it, and takes the next batch that fits', async () => {
    const dir = join(server.tmp, 'log');
    const { child, base } = await server.start(dir, 0, { fileSizeBytes: LIMIT_BYTES });
    const acked: string[][] = [];
    let refused: { ids: string[]; status: number; answer: { code?: string; message?: string } } | null = null;
    for (let b = 0; refused === null; b++) {
      expect(b, 'the file size limit was never reached').toBeLessThan(200);
      const { ids, body } = batch(`Fill ${b}`, 300);
      const { status, answer } = await put(base, body);
      if (status === 200) acked.push(ids);
      else refused = { ids, status, answer };
    }
    expect(acked.length).toBeGreaterThan(0);
    expect(refused.status).toBe(503);
    expect(refused.answer.code).toBe('service_unavailable');
    expect(refused.answer.message).toMatch(/^the change log .*changes\.log could not take the batch \(.*(EFBIG|too large).*\); nothing of it was kept or applied$/);
    // the log holds the acknowledged batches, whole lines only: nothing of the refused one
    const afterRefusal = readLog(join(dir, 'changes.log'));
    expect(afterRefusal.tornBytes).toBe(0);
    expect(afterRefusal.entries.length).toBe(acked.length);
    // the running service did not apply it either
    const detail = await fetch(`${base}/admin/venues/${encodeURIComponent(refused.ids[0]!)}`, { method: 'DELETE', headers: AUTH });
    expect(detail.status).toBe(404);
    // a batch that fits is taken, on a line of its own
    const small = batch('After the refusal', 3);
    expect((await put(base, small.body)).status).toBe(200);
    acked.push(small.ids);
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));

    const read = readLog(join(dir, 'changes.log'));
    expect(read.tornBytes).toBe(0);
    expect(read.entries.map((e) => (e.change.op === 'upsert' ? e.change.records.map((r) => r.id) : []))).toEqual(acked);
    const live = await server.reopen(dir);
    expect(live.opened).toEqual({ batches: acked.length, tornBytes: 0 });
    for (const ids of acked) for (const id of ids) expect(live.engine.has(id), id).toBe(true);
    for (const id of refused.ids) expect(live.engine.has(id), id).toBe(false);
    await live.close();
  }, 120_000);

  it('a compaction that cannot write its base answers 503 naming the cause, leaves no partial file, and changes nothing', async () => {
    const dir = join(server.tmp, 'compact');
    const { child, base } = await server.start(dir, 0, { fileSizeBytes: LIMIT_BYTES });
    const first = batch('Before the compaction', 20);
    expect((await put(base, first.body)).status).toBe(200);
    const res = await fetch(`${base}/admin/compact`, { method: 'POST', headers: AUTH });
    const answer = (await res.json()) as { code?: string; message?: string };
    expect(res.status).toBe(503);
    expect(answer.code).toBe('service_unavailable');
    expect(answer.message).toMatch(/^compaction failed: .*(EFBIG|too large).*; the base and the change log are as they were$/);
    expect(existsSync(join(dir, 'base.snapshot.next'))).toBe(false);
    expect(existsSync(join(dir, 'base.snapshot'))).toBe(false);
    // the service goes on taking batches, and a restart finds them all over the old base
    const second = batch('After the compaction', 20);
    expect((await put(base, second.body)).status).toBe(200);
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    expect(readFileSync(join(dir, 'changes.log'), 'utf8').split('\n').length).toBe(3);
    const live = await server.reopen(dir);
    expect(live.opened).toEqual({ batches: 2, tornBytes: 0 });
    for (const id of [...first.ids, ...second.ids]) expect(live.engine.has(id), id).toBe(true);
    await live.close();
  }, 120_000);
});
