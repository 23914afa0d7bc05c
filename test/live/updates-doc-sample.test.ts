/**
 * docs/updates.md's first sample, run as written (audit 63c F6) on the bundled fixtures: each
 * call followed by a `// -> <value>` comment answers that value (the comment is the oracle),
 * its ids are in the importers' form (`osm:node/123`, docs/data-model.md), and the search
 * after the changes sees them. Also its note: on a file that holds `osm:node/123` already,
 * the upsert replaces it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/engine.js';
import { readVenues } from '../../src/data/read-venues.js';
import type { SearchResponse } from '../../src/schema/search.js';
import { FIXTURES_PATH } from '../search/support.js';

const dir = mkdtempSync(join(tmpdir(), 'updates-doc-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const doc = readFileSync('docs/updates.md', 'utf8');
const sample = /```ts\n([\s\S]*?)```/.exec(doc)![1]!;

interface SampleRun {
  engine: Engine;
  body: unknown;
  now: number;
  /** Each `// -> ` comment's value and what the call before it answered. */
  checks: { expected: unknown; got: unknown }[];
}

/** Runs the sample on `venuesFile`: its import dropped (the functions are passed in), each commented call's answer kept. */
async function runSample(venuesFile: string): Promise<SampleRun> {
  const lines = sample.replace(/^import .* from 'venue-search-engine';$/m, '').replace("'venues.ndjson'", JSON.stringify(venuesFile)).split('\n');
  const out: string[] = [];
  const expected: unknown[] = [];
  let statement = -1; // where the last statement starting with `engine.` begins in `out`
  for (const line of lines) {
    const comment = /^\/\/ -> (.*)$/.exec(line);
    if (comment === null) {
      if (line.startsWith('engine.')) statement = out.length;
      out.push(line);
      continue;
    }
    expected.push(new Function(`return (${comment[1]!});`)() as unknown);
    out[statement] = `__results.push(${out[statement]!}`;
    out[out.length - 1] = `${out[out.length - 1]!.replace(/;\s*(\/\/.*)?$/, '')});`;
  }
  out.push('return { engine, body, now, results: __results };');
  const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (...args: string[]) => (...args: unknown[]) => Promise<{ engine: Engine; body: unknown; now: number; results: unknown[] }>;
  const run = new AsyncFunction('createEngine', 'readVenues', '__results', out.join('\n'));
  const { engine, body, now, results } = await run(createEngine, readVenues, []);
  return { engine, body, now, checks: expected.map((e, k) => ({ expected: e, got: results[k] })) };
}

describe("docs/updates.md's first sample", () => {
  it('answers what its comments say, with ids in the importers\' form; the search sees both changes', async () => {
    expect(sample).toMatch(/osm:node\/123/);
    expect(sample).not.toMatch(/osm-node-/);
    const { engine, body, now, checks } = await runSample(FIXTURES_PATH);
    expect(checks).toHaveLength(2);
    for (const { expected, got } of checks) expect(got).toEqual(expected);
    const ids = (engine.search(body, { now }) as SearchResponse).establishments.map((e) => e.id);
    expect(ids).toContain('osm:node/123');
    expect(ids).not.toContain('osm:node/456');
  });

  it('on a file holding osm:node/123 already, the upsert replaces it, as the note after the sample says', async () => {
    const rows = readFileSync(FIXTURES_PATH, 'utf8').split('\n').filter((l) => l.trim() !== '');
    rows[0] = rows[0]!.replace(/"id":"[^"]*"/, '"id":"osm:node/123"');
    const file = join(dir, 'with-123.ndjson');
    writeFileSync(file, `${rows.join('\n')}\n`);
    const { checks } = await runSample(file);
    expect(doc).toContain('the upsert answers `{ inserted: 1, replaced: 1 }`');
    expect(checks[0]!.got).toEqual({ inserted: 1, replaced: 1 });
    expect(checks[1]!.got).toEqual(checks[1]!.expected);
  });
});
