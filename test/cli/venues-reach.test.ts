// `venues upsert/remove` told the wrong URL (audit 62a 18): an https:// URL of a plain-HTTP
// service fails in the TLS handshake, before any byte of a request, so nothing was sent; a
// --server ending in /v1 gets 404s that are the URL's fault, not a service without live data.
// Oracle: the requests the plain-HTTP peer received (none for https://), and exact messages.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_MAIN } from '../support/cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'venues-reach-'));
const records = join(tmp, 'changes.ndjson');
const ids = join(tmp, 'ids.txt');
const token = join(tmp, 'token');
writeFileSync(records, `${JSON.stringify({ id: 'v1', name: 'Venue 1', location: { type: 'Point', coordinates: [51.5, -0.1] } })}\n`);
writeFileSync(ids, 'v1\n');
writeFileSync(token, 'an-operator-token-of-enough-length\n', { mode: 0o600 });

/** A plain-HTTP peer with no /v1/admin routes: every request logged, each answered 404 as the service answers an unknown path. */
const requests: string[] = [];
let server: Server;
let port: number;
beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ message: `no such path: ${req.method} ${req.url}`, code: 'not_found' }));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
});
afterAll(() => {
  server.close();
  rmSync(tmp, { recursive: true, force: true });
});

async function venues(args: string[], tokenFile = token): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [CLI_MAIN, 'venues', ...args, '--token-file', tokenFile], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += String(d)));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stderr };
}

describe('venues upsert/remove to the wrong URL (audit 62a 18)', () => {
  it('https:// of a plain-HTTP service: the TLS handshake failed, so nothing was sent (and nothing reached the service)', async () => {
    const server = `https://127.0.0.1:${port}`;
    const tls = 'the TLS handshake failed (wrong version number): the service answers plain HTTP, give an http:// URL';
    const upsert = await venues(['upsert', '--server', server, '--file', records]);
    expect(upsert.code).toBe(1);
    expect(upsert.stderr).toBe(`venue-search: cannot reach ${server}: ${tls} (0 batches applied before; the batch of lines 1..1 was not sent: running the same file again is safe, upserts replace by id)\n`);
    const remove = await venues(['remove', '--server', server, '--file', ids]);
    expect(remove.code).toBe(1);
    expect(remove.stderr).toBe(`venue-search: cannot reach ${server}: ${tls} (0 venues removed before; the removal of line 1 was not sent: running the same file again is safe, a removed id is then unknown)\n`);
    expect(requests.filter((r) => r.includes('/admin/'))).toEqual([]);
  }, 60_000);

  it('a --server ending in /v1: the message says the server URL is the root, without /v1 (not a missing --admin-token-file)', async () => {
    const root = `http://127.0.0.1:${port}`;
    for (const server of [`${root}/v1`, `${root}/v1/`]) {
      const upsert = await venues(['upsert', '--server', server, '--file', records]);
      expect(upsert.code).toBe(1);
      expect(upsert.stderr).toBe(`venue-search: batch of lines 1..1 refused (404): no such path: PUT /v1/admin/venues (--server is the service's root URL, without /v1: ${root}); 0 earlier batches were applied\n`);
    }
    const remove = await venues(['remove', '--server', `${root}/v1`, '--file', ids]);
    expect(remove.code).toBe(1);
    expect(remove.stderr).toBe(`venue-search: ${ids}: line 1: removal of "v1" refused (404): no such path: DELETE /v1/admin/venues/v1 (--server is the service's root URL, without /v1: ${root}); 0 venues were removed before\n`);
    // the root itself, without live data, is still told so
    const plain = await venues(['upsert', '--server', root, '--file', records]);
    expect(plain.stderr).toBe('venue-search: batch of lines 1..1 refused (404): no such path: PUT /admin/venues (a service started without --admin-token-file has no /admin routes); 0 earlier batches were applied\n');
  }, 60_000);
});

describe.skipIf(process.platform === 'win32')('a token file others can read (audit 63b F3)', () => {
  it('is used, with a warning on stderr naming the file, its mode and the chmod fix', async () => {
    const exposed = join(tmp, 'exposed.token');
    writeFileSync(exposed, 'an-operator-token-of-enough-length\n');
    chmodSync(exposed, 0o644);
    const upsert = await venues(['upsert', '--server', `http://127.0.0.1:${port}`, '--file', records], exposed);
    expect(upsert.stderr.split('\n').slice(0, 2)).toEqual([
      `warning: the operator token file ${exposed} has mode 0644: readable by its group, readable by others, and whoever reads the token can change the venue data; make it owner-only: chmod 600 ${exposed}`,
      'venue-search: batch of lines 1..1 refused (404): no such path: PUT /admin/venues (a service started without --admin-token-file has no /admin routes); 0 earlier batches were applied',
    ]);
  }, 60_000);
});

describe('a refusal says what to do next (audit 65d F5)', () => {
  // a peer answering PUT as a live service whose disk is full answers (its message copied from
  // src/changelog), and DELETE with a 400 refusing the id
  let full: Server;
  let fullPort: number;
  const ENOSPC = 'the change log L/changes.log could not take the batch (ENOSPC: no space left on device, write); nothing of it was kept or applied';
  beforeAll(async () => {
    full = createServer((req, res) => {
      const status = req.method === 'PUT' && req.url === '/admin/venues' ? 503 : 400;
      const message = status === 503 ? ENOSPC : 'id: must be at most 128 characters; got "v1"';
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ message, code: status === 503 ? 'service_unavailable' : 'invalid_venue' }));
    });
    full.listen(0, '127.0.0.1');
    await once(full, 'listening');
    fullPort = (full.address() as AddressInfo).port;
  });
  afterAll(() => full.close());

  it('a 5xx (a full disk): run the same file again once the service can take changes; a 400: fix it, then run it again', async () => {
    const upsert = await venues(['upsert', '--server', `http://127.0.0.1:${fullPort}`, '--file', records]);
    expect(upsert.code).toBe(1);
    expect(upsert.stderr).toBe(
      `venue-search: batch of lines 1..1 refused (503): ${ENOSPC}; 0 earlier batches were applied: once the service can take changes again (its message says why), run the same file again (safe: upserts replace by id)\n`,
    );
    const remove = await venues(['remove', '--server', `http://127.0.0.1:${fullPort}`, '--file', ids]);
    expect(remove.stderr).toBe(
      `venue-search: ${ids}: line 1: removal of "v1" refused (400): id: must be at most 128 characters; got "v1"; 0 venues were removed before: fix it, then run the same file again (safe: a removed id is then unknown)\n`,
    );
  }, 60_000);
});
