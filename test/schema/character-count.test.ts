/**
 * String lengths are counted as JSON Schema counts them (code points), so the engine refuses
 * exactly what the published schemas refuse. The oracle is ajv (its default unicode-aware
 * length) over the same TypeBox schemas the OpenAPI document publishes.
 */
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { validateVenue } from '../../src/data/validate-venue.js';
import { createEngine } from '../../src/engine.js';
import { VenueSearchError, describeValue } from '../../src/errors.js';
import { characterCount } from '../../src/schema/character-count.js';
import { FindQuerySchema } from '../../src/schema/find.js';
import { SearchBodySchema } from '../../src/schema/search.js';
import { VenueRecordSchema } from '../../src/schema/venue.js';

const BEER = '\u{1F37A}'; // one character, two UTF-16 units
/** A CJK letter outside the BMP: one character, two UTF-16 units, and a word find matches (an emoji is none: a 400 of its own). */
const LETTER_PAST_BMP = '\u{20BB7}';
/** The schema as JSON, each named sub-schema's `$id` kept once (the record schema inlines DayName three times; no `$ref` reads them). */
function once(schema: object): object {
  const seen = new Set<string>();
  return JSON.parse(JSON.stringify(schema), function (key, value: unknown) {
    if (key === '$id' && typeof value === 'string') {
      if (seen.has(value)) return undefined;
      seen.add(value);
    }
    return value;
  }) as object;
}
// draft-07 ajv: the record schema's coordinates are a tuple in the `items: [...]` form
const bodyValid = new Ajv({ strict: false }).compile(once(SearchBodySchema));
const venueValid = new Ajv({ strict: false }).compile(once(VenueRecordSchema));
const findQueryValid = new Ajv({ strict: false }).compile(once(FindQuerySchema));

const engine = createEngine([
  { id: 'a:1', name: 'The Red Lion', location: { type: 'Point', coordinates: [51.5, -0.12] } },
  { id: 'a:2', name: 'The Crown', location: { type: 'Point', coordinates: [51.501, -0.121] } },
]);

function body(label: string): unknown {
  return { locations: [{ lat: 51.5, lon: -0.12, label }, { lat: 51.502, lon: -0.118 }], mode: { mode: 'POINT', maxDistance: 1000 } };
}

/** No lone surrogate (String.prototype.isWellFormed, not in this TypeScript lib). */
function wellFormed(text: string): boolean {
  return !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text);
}

function refusal(run: () => unknown): VenueSearchError | undefined {
  try {
    run();
    return undefined;
  } catch (err) {
    if (err instanceof VenueSearchError) return err;
    throw err;
  }
}

describe('lengths in characters, as the published schemas count them (ajv oracle)', () => {
  it('characterCount counts code points: an emoji is one, an unpaired surrogate one, plain text its length', () => {
    expect(characterCount('')).toBe(0);
    expect(characterCount('abc')).toBe(3);
    expect(characterCount(BEER.repeat(5))).toBe(5);
    expect(characterCount(`a${BEER}b`)).toBe(3);
    expect(characterCount('\ud83c')).toBe(1);
    expect(characterCount('\udf7a\ud83c')).toBe(2); // reversed halves are no pair
    expect(characterCount(`x${'\ud83c'}`)).toBe(2);
  });

  it.each([50, 51, 100, 101])('a search label of %i emoji: the engine and ajv agree', (n) => {
    const b = body(BEER.repeat(n));
    const err = refusal(() => engine.search(b, { now: 0 }));
    expect(err === undefined).toBe(bodyValid(b));
    if (err !== undefined) {
      expect(err.param).toBe('locations[0].label');
      expect(err.message).toContain('at most 100 characters');
    }
  });

  it.each([
    [150, true],
    [200, true],
    [201, false],
  ])('find q of %i characters past the BMP (schema: 1 to 200 characters) accepted: %s; a location of as many emoji too', (n, ok) => {
    expect(refusal(() => engine.find({ q: LETTER_PAST_BMP.repeat(n) }, { now: 0 })) === undefined).toBe(ok);
    const q = BEER.repeat(n);
    const err = refusal(() => engine.find({ q: 'lion', location: q }, { now: 0 }));
    // accepted by the length rule, the location is then an unknown place
    expect(err?.code).toBe(ok ? 'unknown_place' : 'invalid_request');
  });

  it('a find q padded with spaces is counted as sent, as ajv counts it (audit 59b: HTTP refused it, the engine took it)', () => {
    for (const q of [`red lion${' '.repeat(192)}`, `red lion${' '.repeat(193)}`, ` ${'a'.repeat(200)} `, `${'a'.repeat(200)}\t`, `  ${LETTER_PAST_BMP.repeat(198)}`, `  ${LETTER_PAST_BMP.repeat(199)}`]) {
      const ok = findQueryValid({ q });
      const err = refusal(() => engine.find({ q }, { now: 0 }));
      expect(err === undefined, JSON.stringify(q)).toBe(ok);
      if (err !== undefined) expect(err.message).toContain('at most 200 characters long');
    }
  });

  it('a venue name of 300 emoji (600 UTF-16 units, schema: at most 500 characters) is a valid record, 501 emoji is not; ajv agrees', () => {
    for (const [n, ok] of [[300, true], [500, true], [501, false]] as const) {
      const record = { id: 'e:1', name: BEER.repeat(n), location: { type: 'Point', coordinates: [51.5, -0.12] } };
      expect(venueValid(record)).toBe(ok);
      expect(refusal(() => validateVenue(record)) === undefined).toBe(ok);
    }
  });

  it('a long value in a message is cut between characters, never inside an emoji', () => {
    for (const prefix of ['', 'a']) {
      const text = describeValue(prefix + BEER.repeat(60));
      expect(wellFormed(text)).toBe(true);
      expect(text).not.toMatch(/\\ud[89ab]/i);
      expect(text.endsWith('..."')).toBe(true);
      expect(wellFormed(describeValue([prefix + BEER.repeat(60)]))).toBe(true);
    }
    const err = refusal(() => engine.search(body(BEER.repeat(101)), { now: 0 }));
    expect(wellFormed(err?.message ?? '')).toBe(true);
    // an emoji sequence (a family: three people joined by zero-width joiners) is one character
    const FAMILY = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}';
    for (let pad = 70; pad < 80; pad++) {
      const shown = describeValue(`${'a'.repeat(pad)}${FAMILY}${'z'.repeat(20)}`);
      expect(shown.includes(FAMILY) || !shown.includes('\u{1F468}'), `${pad}: ${shown}`).toBe(true);
    }
  });

  it('a value of megabytes is quoted by its first 77 units, cut between characters as a short one is (audit 73d F5: only its start is segmented)', () => {
    // written out by hand: the family is 8 units (2+1+2+1+2); after 70 letters it would end at unit 78 > 77, so it is left out
    const FAMILY = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}';
    expect(describeValue(`${'a'.repeat(70)}${FAMILY}${'z'.repeat(4_000_000)}`)).toBe(`"${'a'.repeat(70)}..."`);
    // after 69 letters it ends at unit 77: kept whole
    expect(describeValue(`${'a'.repeat(69)}${FAMILY}${'z'.repeat(4_000_000)}`)).toBe(`"${'a'.repeat(69)}${FAMILY}..."`);
    expect(describeValue('x'.repeat(4_000_000))).toBe(`"${'x'.repeat(77)}..."`);
  });
});
