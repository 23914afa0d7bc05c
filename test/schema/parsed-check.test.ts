/**
 * The fast check for parsed records (src/schema/parsed-check.ts) against its oracle, TypeBox's
 * own compiled check of the same schema: the verdicts must be equal on every JSON value,
 * valid or not. The values: the fixtures, a record with every field, and tens of thousands of
 * mutants of them (a value replaced, a key removed or added, an array grown or emptied, strings
 * at every length limit of the interface), each passed through JSON text as a reader gets it.
 * The check for values made in code (compileValueCheck) must agree on the same values, and on
 * values JSON cannot make (hidden properties, prototypes) never say valid where TypeBox does not.
 */
import { readFileSync } from 'node:fs';
import { Type, type TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { describe, expect, it } from 'vitest';
import { Rng } from '../../scripts/fixtures/random.js';
import { compileParsedCheck, compileValueCheck } from '../../src/schema/parsed-check.js';
import { validateVenue } from '../../src/data/validate-venue.js';
import { VenueRecordSchema } from '../../src/schema/venue.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const slot = (open: string, close: string, closeNextDay = false) => ({ open, close, isClosed: false, closeNextDay });

/** A record using every field of the interface (some nested several levels deep). */
const FULL_RECORD: Json = {
  id: 'osm:node/42',
  name: 'The Full House',
  displayName: 'Full House',
  formattedAddress: '1 High Street, London',
  location: { type: 'Point', coordinates: [51.5, -0.12] },
  websiteUri: 'https://example.org',
  contactEmail: 'hello@example.org',
  contactNumber: '+44 20 7946 0000',
  description: 'A pub with a garden.',
  primaryGenre: 'pub',
  additionalGenres: ['bar', 'restaurant'],
  wordOnTheStreet: 'Good pies.',
  isChain: false,
  regularOpeningHours: [
    { days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'], timeSlots: [slot('11:00', '23:00')] },
    { days: ['Sat', 'Sun'], timeSlots: [slot('12:00', '01:00', true)] },
  ],
  mainImageUrl: 'https://example.org/a.jpg',
  logo: 'https://example.org/logo.png',
  establishmentFlags: ['servesAlcohol', 'outdoorSeating'],
  catersFlags: ['vegan'],
  vibes: ['cosy'],
  timeZone: 'Europe/London',
  openingHoursText: 'Mo-Fr 11:00-23:00',
  openingHoursNotes: ['Closed on Christmas Day'],
  confidence: 0.9,
  images: [{ url: 'https://example.org/b.jpg', caption: null }, { url: 'https://example.org/c.jpg', caption: 'Bar' }],
  kitchenOpeningHours: [{ days: ['Mon'], timeSlots: [slot('12:00', '14:30'), slot('17:30', '21:00')] }],
  holidayOpeningHours: [{ days: ['Sun'], timeSlots: [{ open: '00:00', close: '24:00', isClosed: true, closeNextDay: false }] }],
  socials: { facebook: 'fullhouse', instagram: 'fullhouse' },
  ratings: { rating: '4.5', userRatingCount: 120 },
  accessibility: { wheelchairEntrance: true, wheelchairToilet: false, stepFreeAccess: true, hearingLoop: false },
  amenities: { outdoorSeating: true, indoorSeating: true, dogFriendly: true, familyFriendly: false, liveMusic: true, sportsOnTv: false, takeaway: false, reservable: true },
  payment: { cash: true, cards: true, contactless: true, mobile: false },
  business: { operator: 'Full Ltd', brand: 'Full', brandWikidata: 'Q123', companyNumber: '0123', foundedYear: 1890 },
  externalIds: { osm: 'node/42', fhrs: '1', wikidata: 'Q1', foursquare: 'f', google: 'g' },
  highlights: ['garden'],
  events: [{ name: 'Quiz', description: 'Tuesdays', startsAt: '2026-12-01T19:00:00Z', endsAt: '2026-12-01T22:00:00Z' }],
  avgPPH: '£25',
  menus: [
    {
      name: 'Food',
      description: 'All day',
      price: 0,
      sections: [
        {
          name: 'Mains',
          items: [
            {
              name: 'Pie',
              description: 'Steak',
              dietaryFlags: ['halal'],
              ingredients: ['beef'],
              calories: 800,
              price: 1450,
              options: [{ name: 'Side', kind: 'SINGLE', minChoices: 0, maxChoices: 1, required: false, choices: [{ name: 'Chips', price: 300, calories: 400, dietaryFlags: [], isDefault: true }] }],
            },
          ],
        },
      ],
    },
  ],
};

/** Replacement values: every JSON type, and numbers and strings at the interface's bounds. */
const LENGTHS = [0, 1, 64, 65, 100, 101, 128, 129, 200, 201, 500, 501, 2000, 2001, 10_000, 10_001];
const REPLACEMENTS: readonly Json[] = [
  null, true, false, 0, -0.5, 0.5, 1, 1.5, -1, -90, -91, 90, 91, 180, 181, -181, 999, 1000, 3000, 3001, 1e300,
  '', 'x', 'a b', '-x', 'Q12', 'Qx', 'node/1', 'way/x', 'Point', 'point', '24:00', '24:01', '23:59', '9:00', '3.5', '6', '5.', 'Mon', 'mon', 'SINGLE', 'GROUP',
  ...LENGTHS.map((n) => 'a'.repeat(n)),
  [], ['x'], [''], [1], [null], [51.5, -0.12], [51.5], [91, 0], { }, { a: 1 }, { type: 'Point', coordinates: [0, 0] },
];

/** Every path to a value inside `value` (the root excluded), as key lists. */
function paths(value: Json, prefix: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  if (Array.isArray(value)) value.forEach((v, i) => { out.push([...prefix, i]); paths(v, [...prefix, i], out); });
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) { out.push([...prefix, k]); paths(v, [...prefix, k], out); }
  return out;
}

function at(value: Json, path: readonly (string | number)[]): Json {
  return path.reduce<Json>((v, key) => (v as Record<string | number, Json>)[key]!, value);
}

/** One random change of a copy of `record` (at a random place; the copy's JSON text parsed back, as a reader gets it). */
function mutant(record: Json, rng: Rng): unknown {
  const copy = JSON.parse(JSON.stringify(record)) as Json;
  const all = paths(copy);
  const path = rng.pick(all);
  const parent = at(copy, path.slice(0, -1)) as Json[] | { [key: string]: Json };
  const key = path[path.length - 1]!;
  const slots = parent as Record<string | number, Json>;
  const value = slots[key]!;
  switch (rng.int(0, 5)) {
    case 0:
    case 1:
      slots[key] = rng.pick(REPLACEMENTS);
      break;
    case 2: // a key removed (an array element cut)
      if (Array.isArray(parent)) parent.splice(key as number, 1);
      else delete parent[key];
      break;
    case 3: // a key added beside it: unknown, or a known one from elsewhere in the record
      if (Array.isArray(parent)) parent.push(rng.chance(0.5) ? (JSON.parse(JSON.stringify(value)) as Json) : rng.pick(REPLACEMENTS));
      else parent[rng.chance(0.5) ? 'unknownKey' : String(rng.pick(all.map((p) => p[p.length - 1]!)))] = rng.pick(REPLACEMENTS);
      break;
    case 4: // an array grown past a limit, or emptied
      slots[key] = !Array.isArray(value)
        ? rng.pick(REPLACEMENTS)
        : rng.chance(0.5)
          ? []
          : Array.from({ length: rng.pick([7, 8, 100, 101, 1001]) }, () => value[0] ?? 'x');
      break;
    default: // two changes
      return mutant(JSON.parse(JSON.stringify(copy)), rng);
  }
  return JSON.parse(JSON.stringify(copy));
}

/** The oracle: TypeBox's own compiled check of the record schema. */
const oracle = TypeCompiler.Compile(VenueRecordSchema);
/** The bundled fixtures, as a reader parses them. */
const fixtures = readFileSync(new URL('../../fixtures/venues.ndjson', import.meta.url), 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as Json);

describe('compileParsedCheck', () => {
  const fast = compileParsedCheck(VenueRecordSchema);

  it('agrees with TypeBox on every fixture and on a record with every field', () => {
    expect(oracle.Check(FULL_RECORD)).toBe(true);
    expect(fast(FULL_RECORD)).toBe(true);
    for (const record of fixtures) expect(fast(record)).toBe(oracle.Check(record));
    expect(fixtures.every((r) => oracle.Check(r))).toBe(true);
  });

  it('agrees with TypeBox on 40,000 mutants of them, valid and invalid', () => {
    const rng = new Rng(20261129);
    const seeds = [FULL_RECORD, ...fixtures.slice(0, 200)];
    let valid = 0;
    let invalid = 0;
    const disagreements: string[] = [];
    for (let k = 0; k < 40_000; k++) {
      const value = mutant(seeds[k % seeds.length]!, rng);
      const expected = oracle.Check(value);
      if (fast(value) !== expected && disagreements.length < 5) disagreements.push(`${expected ? 'valid' : 'invalid'} per TypeBox: ${JSON.stringify(value).slice(0, 400)}`);
      if (expected) valid++;
      else invalid++;
    }
    expect(disagreements).toEqual([]);
    // both verdicts are well represented (the mutants do not all fail at the same place)
    expect(valid).toBeGreaterThan(4000);
    expect(invalid).toBeGreaterThan(4000);
  });

  it('leaves a node outside its subset to TypeBox, with the same verdicts', () => {
    const schema: TSchema = Type.Object(
      {
        even: Type.Integer({ multipleOf: 2 }),
        tags: Type.Optional(Type.Record(Type.String(), Type.Number())),
        anything: Type.Any(),
        pair: Type.Tuple([Type.String(), Type.Null()]),
        bits: Type.Optional(Type.Array(Type.Union([Type.Literal(0), Type.Literal(1), Type.Boolean()]), { minItems: 1 })),
      },
      { additionalProperties: false },
    );
    const check = compileParsedCheck(schema);
    const typeBox = TypeCompiler.Compile(schema);
    const values: unknown[] = [
      { even: 2, anything: 1, pair: ['a', null] },
      { even: 3, anything: 1, pair: ['a', null] },
      { even: 2, pair: ['a', null] },
      { even: 2, anything: null, pair: ['a', null], tags: { a: 1 } },
      { even: 2, anything: null, pair: ['a', null], tags: { a: 'x' } },
      { even: 2, anything: 0, pair: ['a', 'b'] },
      { even: 2, anything: 0, pair: ['a', null, null] },
      { even: 2, anything: 0, pair: ['a', null], bits: [0, 1, true] },
      { even: 2, anything: 0, pair: ['a', null], bits: [2] },
      { even: 2, anything: 0, pair: ['a', null], bits: [] },
      { even: 2, anything: 0, pair: ['a', null], extra: 1 },
      [],
      null,
      'x',
    ];
    const verdicts = values.map((v) => typeBox.Check(v));
    expect(verdicts.filter(Boolean).length).toBeGreaterThanOrEqual(3);
    expect(values.map((v) => check(v))).toEqual(verdicts);
  });

  it('allows unknown keys where the schema does not forbid them', () => {
    const schema = Type.Object({ a: Type.String() });
    const check = compileParsedCheck(schema);
    expect(check({ a: 'x', b: 1 })).toBe(true);
    expect(check({ b: 1 })).toBe(false);
    expect(TypeCompiler.Compile(schema).Check({ a: 'x', b: 1 })).toBe(true);
  });
});

/** Object.defineProperty with a non-enumerable data property (for...in does not see it; TypeBox does). */
function hide(o: object, key: string, value: unknown): void {
  Object.defineProperty(o, key, { value, enumerable: false, writable: true, configurable: true });
}

describe('compileValueCheck', () => {
  const check = compileValueCheck(VenueRecordSchema);
  const copy = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

  it('agrees with TypeBox on plain values: the fixtures, a full record and 20,000 mutants', () => {
    expect(check(FULL_RECORD)).toBe(true);
    for (const record of fixtures) expect(check(record)).toBe(oracle.Check(record));
    const rng = new Rng(20261130);
    const seeds = [FULL_RECORD, ...fixtures.slice(0, 200)];
    const disagreements: string[] = [];
    let valid = 0;
    for (let k = 0; k < 20_000; k++) {
      const value = mutant(seeds[k % seeds.length]!, rng);
      const expected = oracle.Check(value);
      if (expected) valid++;
      if (check(value) !== expected && disagreements.length < 5) disagreements.push(JSON.stringify(value).slice(0, 400));
    }
    expect(disagreements).toEqual([]);
    expect(valid).toBeGreaterThan(2000);
  });

  it('never vouches for a value with a hidden property, an odd prototype or an odd array', () => {
    const base = copy(fixtures[0]!) as Record<string, unknown>;
    expect(check(base)).toBe(true);
    // a non-enumerable own key: unknown (TypeBox refuses), or known with a bad value (refuses)
    const unknownHidden = copy(base);
    hide(unknownHidden, 'secret', 1);
    const badHidden = copy(base);
    hide(badHidden, 'description', 5);
    const badHiddenDeep = copy(base);
    hide(badHiddenDeep.location as object, 'extra', true);
    // a prototype's getter TypeBox reads for an absent key (a bad value), and a class instance
    class WithGetter {
      get description(): unknown {
        return 5;
      }
    }
    const inherited = Object.assign(new WithGetter(), copy(base));
    // an array whose iterator (TypeBox's walk: for...of) yields other values than its indices hold
    class Refusing<T> extends Array<T> {
      override *[Symbol.iterator](): ArrayIterator<T> {
        yield 5 as T;
      }
    }
    const oddArray = copy(base);
    oddArray.establishmentFlags = Refusing.from(['servesFood']);
    for (const value of [unknownHidden, badHidden, badHiddenDeep, inherited, oddArray]) {
      expect(oracle.Check(value)).toBe(false);
      expect(check(value)).toBe(false);
    }
    // valid to TypeBox but not plain: not vouched for, and validateVenue still accepts it (TypeBox judges)
    class Plain {}
    const instance = Object.assign(new Plain(), copy(base));
    expect(oracle.Check(instance)).toBe(true);
    expect(check(instance)).toBe(false);
    expect(validateVenue(instance)).toBe(instance);
    // no prototype at all is plain data
    const bare = Object.assign(Object.create(null) as object, copy(base));
    expect(check(bare)).toBe(oracle.Check(bare));
    expect(check(bare)).toBe(true);
  });

  it('counts own keys only when Object.prototype has an enumerable property', () => {
    // A schema allowing unknown keys: an inherited enumerable key must not stand for a hidden own one.
    const schema = Type.Object({ a: Type.Optional(Type.String()) });
    const loose = compileValueCheck(schema);
    const value = {};
    hide(value, 'a', 5);
    const proto = Object.prototype as Record<string, unknown>;
    Object.defineProperty(proto, 'polluted', { value: 1, enumerable: true, configurable: true, writable: true });
    try {
      expect(TypeCompiler.Compile(schema).Check(value)).toBe(false);
      expect(loose(value)).toBe(false);
      expect(loose({ a: 'x' })).toBe(true);
    } finally {
      delete proto.polluted;
    }
  });

  it('leaves a known key Object.prototype also has to TypeBox (it reads an absent one through the prototype)', () => {
    const schema = Type.Object({ constructor: Type.Optional(Type.String()), a: Type.String() });
    const typeBox = TypeCompiler.Compile(schema);
    for (const compile of [compileValueCheck, compileParsedCheck]) {
      const fast = compile(schema);
      for (const value of [{ a: 'x' }, JSON.parse('{"a":"x","constructor":"c"}') as object, { a: 1 }]) expect(fast(value)).toBe(typeBox.Check(value));
    }
  });

  it('says valid for random records built in code whenever, and only when, TypeBox does, unless one is not plain', () => {
    const rng = new Rng(7);
    let vouched = 0;
    for (let k = 0; k < 3000; k++) {
      const value = copy(fixtures[k % fixtures.length]!) as Record<string, unknown>;
      const change = rng.int(0, 3);
      if (change === 0) hide(value, rng.pick(['description', 'secret', 'vibes']), rng.pick(REPLACEMENTS));
      else if (change === 1) Object.setPrototypeOf(value, rng.chance(0.5) ? null : { vibes: 'x' });
      const expected = oracle.Check(value);
      const got = check(value);
      if (got) vouched++;
      if (got) expect(expected).toBe(true);
      if (change === 2 || (change === 1 && Object.getPrototypeOf(value) === null)) expect(got).toBe(expected);
    }
    expect(vouched).toBeGreaterThan(1000);
  });
});
