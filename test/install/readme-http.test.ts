/**
 * Issue 14: the README's HTTP examples run as written, against `venue-search serve` on the
 * bundled fixtures and on a real OpenStreetMap import of London's pubs. The block is taken
 * from README.md and run by bash with `set -euo pipefail`; every curl in it uses
 * `--fail-with-body`, so any error status fails the run.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hasShared, sharedFile } from '../support/real-data.js';
import { startServe } from '../support/serve-process.js';
import { fencedBlocks, REPO, run, userEnv } from './install-support.js';
import { CLI_MAIN } from '../support/cli.js';

const LONDON_OSM = 'osm-london-pubs/london_pubs_overpass_2024-11-25.geojson';
const README = readFileSync(join(REPO, 'README.md'), 'utf8');
const BLOCK = fencedBlocks(README, 'sh').find((b) => b.includes('API-Key: $K'));
const tmp = mkdtempSync(join(tmpdir(), 'venue-search-readme-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function serve(data: string) {
  const args = [CLI_MAIN, 'serve', '--data', data, '--dev', '--port', '0', '--db', join(tmp, `${Date.now()}.sqlite`)];
  return startServe(process.execPath, args, REPO, userEnv());
}

async function runReadmeBlock(data: string): Promise<string> {
  expect(BLOCK, 'README has a sh block using $K').toBeDefined();
  const server = await serve(data);
  try {
    const { stdout } = run('bash', ['-euo', 'pipefail', '-c', BLOCK!], tmp, { env: userEnv({ K: server.key, B: server.base }), timeoutMs: 60_000 });
    return stdout;
  } finally {
    server.child.kill('SIGTERM');
  }
}

function checkAnswers(stdout: string): void {
  // Each curl printed one JSON document; the find answer names a Red Lion near Soho.
  expect(stdout).toMatch(/"searchQuery":"red lion"/);
  expect(stdout).toMatch(/"name":"[^"]*Red Lion[^"]*"/i);
  expect(stdout).toMatch(/"centerPoint":\{"Lat":51\.52/);
  expect(stdout).toMatch(/"balanceMicros":\d+/);
  expect(stdout).toMatch(/"openapi":"3\.1/);
  expect(stdout).not.toMatch(/"type":"\w+_error"/);
}

describe('README HTTP examples, run as written', () => {
  it('on the bundled fixtures', async () => {
    checkAnswers(await runReadmeBlock('fixtures/venues.ndjson'));
  }, 120_000);

  it.runIf(hasShared(LONDON_OSM))('on the real OSM London pubs import', async () => {
    const london = join(tmp, 'london.ndjson');
    run(process.execPath, [CLI_MAIN, 'import', 'osm', sharedFile(LONDON_OSM), '-o', london], REPO);
    checkAnswers(await runReadmeBlock(london));
  }, 120_000);
});
