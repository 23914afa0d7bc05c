// Compares a live engine with an engine built from scratch on the expected records, on
// random searches, finds, details and the vocabulary. Answers and errors must be identical.
import { expect } from 'vitest';
import { createEngine, type Engine } from '../../src/engine.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { randomQuery } from '../search/oracle-queries.js';
import { seeded } from './change-stream.js';

/** Runs `f` and returns its value, or the error's code, message and param. */
function outcome(f: () => unknown): unknown {
  try {
    return { ok: f() };
  } catch (e) {
    const err = e as { code?: string; message: string; param?: string };
    return { error: err.code ?? 'thrown', message: err.message, param: err.param };
  }
}

/**
 * Place names of several gazetteer places (Colby: Norfolk, Cumbria and the Isle of Man;
 * Richmond; Douglas; Newport) and a misspelling ("Pele": Peel, Pyle or Hele).
 */
const SHARED_PLACE_NAMES = ['Colby', 'Richmond', 'Douglas', 'Newport', 'Pele'];

export interface CompareCounts {
  searches: number;
  finds: number;
  details: number;
}

/**
 * `live` against `createEngine(expected)`: 20 searches (POINT and PATH, preferences,
 * paging), 10 finds (name, prefix, typo, centre, place, paging) and 10 detail calls.
 * `words`: extra words to ask for (ones that left the data among them).
 */
export function compareWithScratch(
  live: Engine,
  expected: readonly VenueRecord[],
  seed: number,
  stale: { ids: readonly string[]; words: readonly string[]; names: readonly string[] },
  counts: CompareCounts = { searches: 20, finds: 10, details: 10 },
): Engine {
  const scratch = createEngine(expected);
  const rnd = seeded(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const now = Date.UTC(2026, 10, 23, 12, 0);
  expect(live.size).toBe(scratch.size);
  const vocabulary = scratch.vocabulary();
  expect(live.vocabulary()).toEqual(vocabulary);
  const words = {
    establishmentFilters: [...vocabulary.establishmentFilters, ...stale.words],
    catersFilters: vocabulary.catersFilters,
    vibes: [...vocabulary.vibes, ...stale.words],
  };
  const pool = expected.length > 0 ? expected : [{ id: 'x', name: 'x', location: { type: 'Point', coordinates: [51.5, -0.1] } } as VenueRecord];
  for (let s = 0; s < counts.searches; s++) {
    const body = randomQuery(rnd, pool, s % 2 === 0 ? 'POINT' : 'PATH', words, now);
    const page = { now, limit: 1 + Math.floor(rnd() * 30), offset: pick([0, 0, 3, 10, 25]) };
    expect(outcome(() => live.search(body, page)), `search ${JSON.stringify(body)} ${JSON.stringify(page)}`).toEqual(
      outcome(() => scratch.search(body, page)),
    );
  }
  // one search around a venue's point with lat and lon exchanged: usually nothing there, and
  // the answer's swapped-coordinates hint must be the fresh engine's (live cell counts)
  const swappedAt = pick(pool).location.coordinates;
  if (Math.abs(swappedAt[1]) <= 90) {
    const body = { locations: [{ lat: swappedAt[1], lon: swappedAt[0] }], mode: { mode: 'POINT', maxDistance: 1000 } };
    expect(outcome(() => live.search(body, { now })), `swapped search ${JSON.stringify(body)}`).toEqual(outcome(() => scratch.search(body, { now })));
  }
  const learnt = scratch.learntPlaces().toJSON();
  const placeNames = [...learnt.areas.map(([, p]) => p.name), ...learnt.postcodes.map(([code]) => code), 'Nowhere Special'];
  for (let f = 0; f < counts.finds; f++) {
    const r = pick(pool);
    const name = rnd() < 0.3 && stale.names.length > 0 ? pick(stale.names) : r.name;
    const nameWords = name.split(/\s+/).filter((w) => w.length > 0);
    const word = pick(nameWords);
    const roll = rnd();
    let q: string;
    if (roll < 0.3) q = word;
    else if (roll < 0.5) q = word.slice(0, 2 + Math.floor(rnd() * 3));
    else if (roll < 0.7 && word.length >= 5) q = word.slice(0, 2) + word[3] + word[2] + word.slice(4);
    else q = nameWords.slice(0, 2).join(' ');
    const params: Record<string, unknown> = { q, limit: 1 + Math.floor(rnd() * 20), offset: pick([0, 0, 2, 7]) };
    const where = rnd();
    if (where < 0.35) {
      params.lat = r.location.coordinates[0] + (rnd() - 0.5) * 0.02;
      params.lon = r.location.coordinates[1] + (rnd() - 0.5) * 0.02;
      params.maxDistanceMeters = pick([500, 2000, 10_000]);
    } else if (where < 0.6) {
      params.location = pick(placeNames);
      params.maxDistanceMeters = pick([1000, 5000]);
    }
    expect(outcome(() => live.find(params, { now })), `find ${JSON.stringify(params)}`).toEqual(outcome(() => scratch.find(params, { now })));
  }
  // Names several gazetteer places share, and one misspelt: which place, and the suggestions'
  // order, are chosen by where the current venues are (docs/find.md, place names, rule 3).
  for (const location of SHARED_PLACE_NAMES) {
    const params = { q: 'the', location, maxDistanceMeters: 5000 };
    expect(outcome(() => live.find(params, { now })), `find ${JSON.stringify(params)}`).toEqual(outcome(() => scratch.find(params, { now })));
  }
  for (let d = 0; d < counts.details; d++) {
    const id = rnd() < 0.7 ? pick(pool).id : pick(stale.ids.length > 0 ? stale.ids : ['none']);
    const call = pick(['basic', 'advanced', 'menus'] as const);
    const run = (e: Engine) => outcome(() => (call === 'menus' ? e.menus(id) : e[call](id, { now })));
    expect(run(live), `${call} ${id}`).toEqual(run(scratch));
  }
  return scratch;
}
