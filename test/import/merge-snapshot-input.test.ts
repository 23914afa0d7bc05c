/**
 * Audit 66g F5: a venue-search snapshot given to `import merge` was read as text, its bytes
 * split at newlines, and refused as "holds no venue records: all N are invalid (... not JSON)".
 * Now it is told it is a snapshot, as `import osm|fhrs|overture` tell it (src/import/wrong-importer.ts),
 * and what merge takes instead; the output is not written. Oracle: the message written out by
 * hand, and the same venues as an NDJSON file, which merge takes.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Command } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import { registerImportCommands } from '../../src/cli/import-command.js';
import { createEngine } from '../../src/engine.js';
import { writeSnapshot } from '../../src/snapshot/write-snapshot.js';

const dir = mkdtempSync(join(tmpdir(), 'venue-merge-snapshot-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Two London pubs of docs/data-model.md's shape (the first as the OSM London pubs extract has it). */
const VENUES = [
  { id: 'osm:node/451152', name: 'King of Prussia', location: { type: 'Point', coordinates: [51.6008404, -0.1946078] }, primaryGenre: 'pub' },
  { id: 't:2', name: 'The Red Lion', location: { type: 'Point', coordinates: [51.5101, -0.1337] }, primaryGenre: 'pub' },
];

async function run(args: string[]): Promise<{ stderr: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let said = '';
  stdout.resume();
  stderr.on('data', (chunk: Buffer) => (said += chunk.toString()));
  const program = new Command('venue-search').exitOverride().configureOutput({ writeErr: () => {} });
  registerImportCommands(program, { stdout, stderr });
  await program.parseAsync(['node', 'venue-search', ...args]);
  return { stderr: said };
}

describe('import merge given a snapshot (audit 66g F5)', () => {
  const ndjson = join(dir, 'pubs.ndjson');
  writeFileSync(ndjson, VENUES.map((v) => JSON.stringify(v)).join('\n') + '\n');
  const snapshot = join(dir, 'pubs.vsnap');
  writeSnapshot(createEngine(VENUES as never), snapshot);
  const said = 'is a venue-search snapshot (venue records already imported and built), not a source to import: serve it with `venue-search serve --data`, or merge the venue files it was built from';

  it('is told it is a snapshot, first or after a venue file, and nothing is written', async () => {
    expect(readFileSync(snapshot).subarray(0, 8).toString('latin1')).toBe('VSNAPSHT');
    for (const inputs of [[snapshot, ndjson], [ndjson, snapshot]]) {
      const out = join(dir, 'out.ndjson');
      await expect(run(['import', 'merge', ...inputs, '-o', out])).rejects.toMatchObject({ code: 'invalid_data', message: `merge input ${snapshot} ${said}` });
      expect(existsSync(out)).toBe(false);
    }
  });

  it('the venue file the snapshot was built from is merged', async () => {
    const out = join(dir, 'merged.ndjson');
    await run(['import', 'merge', ndjson, '-o', out]);
    expect(readFileSync(out, 'utf8').trimEnd().split('\n').map((l) => (JSON.parse(l) as { id: string }).id)).toEqual(VENUES.map((v) => v.id));
  });
});
