// `venues upsert` and `venues remove` stopped by Ctrl-C (SIGINT) while a request is in flight:
// each says what was applied and that the request in flight may or may not be, then stops as
// the signal would (audit 61a and 75b F1: they exited 130 saying nothing). The service here
// accepts the connection and never answers, so the first request is in flight when the signal
// comes.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_MAIN } from '../support/cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'venues-interrupt-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/**
 * Runs `venue-search venues <args> --server <a service that never answers>`, sends SIGINT
 * once the service has received `requestLine`, and resolves with the signal the command
 * exited on and its stderr.
 */
async function interruptedCommand(args: string[], requestLine: string): Promise<{ signal: NodeJS.Signals | null; stderr: string }> {
  const sockets: Socket[] = [];
  let received = '';
  const silent = createServer((socket) => {
    sockets.push(socket);
    socket.on('data', (d) => (received += String(d)));
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const port = (silent.address() as AddressInfo).port;
  const token = join(tmp, `token-${args[0]}`);
  writeFileSync(token, 'an-operator-token-of-enough-length\n', { mode: 0o600 });
  const child = spawn(process.execPath, [CLI_MAIN, 'venues', ...args, '--server', `http://127.0.0.1:${port}`, '--token-file', token], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += String(d)));
  try {
    await expect.poll(() => received.includes(requestLine), { timeout: 30_000 }).toBe(true);
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    child.kill('SIGINT');
    return { signal: await exited, stderr: stderr.trim() };
  } finally {
    child.kill('SIGKILL');
    for (const s of sockets) s.destroy();
    silent.close();
  }
}

describe('venues upsert, interrupted', () => {
  it('says how many batches were applied and that the one in flight may or may not be, then stops on the signal', async () => {
    const file = join(tmp, 'changes.ndjson');
    const record = (i: number) => JSON.stringify({ id: `v${i}`, name: `Venue ${i}`, location: { type: 'Point', coordinates: [51.5, -0.1] } });
    writeFileSync(file, `${Array.from({ length: 30 }, (_, i) => record(i)).join('\n')}\n`);
    const { signal, stderr } = await interruptedCommand(['upsert', '--file', file, '--batch', '10'], 'PUT /admin/venues');
    expect(signal).toBe('SIGINT');
    expect(stderr).toBe(
      'venue-search: SIGINT: stopped after 0 batches applied (0 records); the batch of lines 1..10 was sent and may or may not be applied: running the same file again is safe, upserts replace by id',
    );
  }, 60_000);
});

describe('venues remove, interrupted (audit 75b F1: it stopped saying nothing)', () => {
  it('says the line it stopped at, how many were removed, and that the removal in flight may or may not be applied', async () => {
    const file = join(tmp, 'ids.txt');
    writeFileSync(file, `${Array.from({ length: 30 }, (_, i) => `v${i}`).join('\n')}\n`);
    const { signal, stderr } = await interruptedCommand(['remove', '--file', file], 'DELETE /admin/venues/v0');
    expect(signal).toBe('SIGINT');
    expect(stderr).toBe(
      `venue-search: SIGINT: stopped at line 1 of ${file}, after 0 venues removed (0 ids unknown); the removal of line 1 was sent and may or may not be applied: running the same file again is safe, a removed id is then unknown`,
    );
  }, 60_000);
});
