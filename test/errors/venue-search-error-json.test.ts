// JSON.stringify of a VenueSearchError (a service's log line, a reject returned as JSON) keeps
// its message and its fields, and carries the bad value only when small (audit 66b F3: the
// message was dropped, since an Error's message is not an own enumerable property, and a
// 5 MB query made 5 MB of JSON).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readVenues } from '../../src/data/read-venues.js';
import { createEngine } from '../../src/engine.js';
import { VenueSearchError } from '../../src/errors.js';
import { PackageFileMissingError, requirePackageFile } from '../../src/package-files.js';
import { UnknownPlaceError } from '../../src/places/unknown-place-error.js';
import { fixtureLines } from '../data/support/fixture-files.js';

const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value)) as unknown;
const errorOf = (call: () => unknown): VenueSearchError => {
  try {
    call();
  } catch (err) {
    if (err instanceof VenueSearchError) return err;
    throw err;
  }
  throw new Error('expected a VenueSearchError');
};
const venue = { id: 'v1', name: 'The Red Lion', location: { type: 'Point' as const, coordinates: [51.5136, -0.1365] as [number, number] } };

describe('VenueSearchError as JSON', () => {
  it('keeps name, code, message, param and a small value (an engine error)', () => {
    const err = errorOf(() => createEngine([venue]).basic('nope'));
    expect(err.message).not.toBe('');
    expect(asJson(err)).toEqual({ name: 'VenueSearchError', code: 'venue_not_found', message: err.message, param: 'id', value: 'nope' });
  });

  it('leaves out a value whose JSON is over 256 characters: a 5,000,000-character query makes a short JSON with the message', () => {
    const err = errorOf(() => createEngine([venue]).find({ q: 'q'.repeat(5_000_000) }));
    const json = JSON.stringify(err);
    expect(json.length).toBeLessThan(1000);
    expect(JSON.parse(json)).toEqual({ name: 'VenueSearchError', code: err.code, message: err.message, param: err.param });
    // The bound, by hand: a string of 254 characters is 256 as JSON (its quotes), kept; 255 is left out.
    expect(asJson(new VenueSearchError('invalid_request', 'm', { value: 'a'.repeat(254) }))).toHaveProperty('value', 'a'.repeat(254));
    expect(asJson(new VenueSearchError('invalid_request', 'm', { value: 'a'.repeat(255) }))).not.toHaveProperty('value');
    // An object of 5 MB (an upserted record) is left out too.
    expect(JSON.stringify(new VenueSearchError('invalid_venue', 'm', { value: { id: 'x', blob: 'y'.repeat(5_000_000) } })).length).toBeLessThan(100);
  });

  it('leaves out a value JSON would change or cannot write, and never throws', () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    for (const value of [Number.NaN, Number.POSITIVE_INFINITY, 10n, cycle, new Set([1]), new Date(0), undefined, () => 1]) {
      expect(asJson(new VenueSearchError('invalid_request', 'bad', { param: 'p', value }))).toEqual({ name: 'VenueSearchError', code: 'invalid_request', message: 'bad', param: 'p' });
    }
    for (const value of [0, -2.5, false, null, '', [1, 'a'], { lat: 1 }]) {
      expect(asJson(new VenueSearchError('invalid_request', 'bad', { value }))).toEqual({ name: 'VenueSearchError', code: 'invalid_request', message: 'bad', value });
    }
  });

  it("keeps a subclass's own fields (UnknownPlaceError's suggestions)", () => {
    const err = new UnknownPlaceError('Sohoo', ['Soho']);
    expect(asJson(err)).toEqual({ name: 'VenueSearchError', code: 'unknown_place', message: err.message, param: 'location', value: 'Sohoo', suggestions: ['Soho'] });
  });

  it('a skip-mode reject of an unparsable line says why as JSON (the parser message), with its file and line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'error-json-'));
    const path = join(dir, 'bad.ndjson');
    const bad = JSON.parse(fixtureLines[2]!) as { id: string; location: { coordinates: unknown[] } };
    bad.location.coordinates = [51.5, 'x'];
    writeFileSync(path, `${[fixtureLines[0]!, '{not json', JSON.stringify(bad), fixtureLines[3]!].join('\n')}\n`);
    let parserSays = '';
    try {
      JSON.parse('{not json');
    } catch (err) {
      parserSays = (err as Error).message;
    }
    const { rejects } = await readVenues(path, { onInvalid: 'skip' });
    expect(asJson(rejects)).toEqual([
      { line: 2, error: { name: 'VenueSearchError', code: 'invalid_data', message: `${path}: line 2: malformed JSON: ${parserSays}`, file: path, line: 2 } },
      {
        line: 3,
        recordId: bad.id,
        error: {
          name: 'VenueSearchError',
          code: 'invalid_venue',
          message: `${path}: line 3, venue "${bad.id}", field location.coordinates[1]: expected number; got "x"`,
          param: 'location.coordinates[1]',
          value: 'x',
          file: path,
          line: 3,
          recordId: bad.id,
        },
      },
    ]);
  });
});

describe('PackageFileMissingError as JSON', () => {
  it('keeps its name, message and the path looked at (a bundled service logging it)', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'vs-pkgfile-')), 'gb-places.tsv');
    let caught: unknown;
    try {
      requirePackageFile('GB gazetteer', path);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(PackageFileMissingError);
    // the message, written by hand from the class's wording: it names the file and the remedy
    expect(asJson(caught)).toEqual({
      name: 'PackageFileMissingError',
      message: expect.stringContaining(`cannot find its GB gazetteer (${path}): `) as unknown,
      path,
    });
    expect((asJson(caught) as { message: string }).message).toContain('esbuild --packages=external');
  });
});
