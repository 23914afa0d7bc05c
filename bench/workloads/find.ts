/**
 * Find workloads (issue 5): name search at 1M venues, with and without a 5 km centre,
 * beside MiniSearch (prefix search, AND) and two naive baselines, in one run.
 *
 * Data: scripts/fixtures/bench-venues.ts (a long tail of distinct name words, venues around
 * every GB town by population). Queries (seeded): 400 partial names taken from venue names ("red
 * li": a whole word plus a prefix of the next, or one word prefix of 3+ letters), 200 typo
 * queries (one letter of a 6+ letter word dropped), centres at random venues (so density
 * follows the venues). Totals and pages are checked against the naive scans OUTSIDE the
 * timed loops.
 */
import MiniSearch from 'minisearch';
import { createFindService } from '../../src/find/find.js';
import { OPTIONAL_QUERY_WORDS, nameTokens } from '../../src/find/normalize-name.js';
import { HitBuffer } from '../../src/spatial/hit-buffer.js';
import { Rng } from '../../scripts/fixtures/random.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import type { BenchContext } from '../lib/context.js';
import { measure, measureLive, timeOnce } from '../lib/measure.js';
import type { WorkloadResult } from '../lib/report.js';

export const FIND_RADIUS = 5000;
const RADIUS = FIND_RADIUS;

/** Seeded find queries over `venues`: partial names ("red li" or a 3+ letter word prefix), typos, centres at venues. */
export function findQueries(venues: readonly VenueRecord[]): { partial: string[]; typos: string[]; centres: Array<{ lat: number; lon: number }> } {
  const N = venues.length;
  const rng = new Rng(7);
  const partial: string[] = [];
  const typos: string[] = [];
  while (partial.length < 400) {
    const words = nameTokens(venues[Math.floor(rng.next() * N)]!.name).filter((w) => !OPTIONAL_QUERY_WORDS.has(w));
    if (words.length === 0) continue;
    if (words.length >= 2 && rng.chance(0.5)) partial.push(`${words[0]} ${words[1]!.slice(0, 2 + Math.floor(rng.next() * (words[1]!.length - 1)))}`);
    else {
      const w = words[Math.floor(rng.next() * words.length)]!;
      if (w.length >= 3) partial.push(w.slice(0, 3 + Math.floor(rng.next() * (w.length - 2))));
    }
  }
  while (typos.length < 200) {
    const words = nameTokens(venues[Math.floor(rng.next() * N)]!.name).filter((w) => w.length >= 6);
    if (words.length === 0) continue;
    const w = words[0]!;
    const k = 1 + Math.floor(rng.next() * (w.length - 1));
    typos.push(w.slice(0, k) + w.slice(k + 1));
  }
  const centres = Array.from({ length: 400 }, () => {
    const v = venues[Math.floor(rng.next() * N)]!;
    return { lat: v.location.coordinates[0], lon: v.location.coordinates[1] };
  });
  return { partial, typos, centres };
}

export function findWorkloads(ctx: BenchContext): WorkloadResult[] {
  const { engine, timeMs } = ctx;
  const N = ctx.n;
  const find = { find: (p: Parameters<typeof engine.find>[0], now: number) => engine.find(p, { now }) };
  const { partial, typos, centres } = findQueries(ctx.venues);
  // Our rows in the live regime first, while the process holds what a service holds: the
  // engine and the queries (the baselines below hold 1M decoded records, their names, a
  // second name index and MiniSearch's).
  let b = 0;
  const live = measureLive(
    [
      ['find, no centre (ours)', () => find.find({ q: partial[b++ % partial.length]!, limit: 20 }, 0).totalFound],
      [
        'find, 5 km centre (ours)',
        () => {
          const k = b++ % partial.length;
          return find.find({ q: partial[k]!, lat: centres[k]!.lat, lon: centres[k]!.lon, maxDistanceMeters: RADIUS, limit: 20 }, 0).totalFound;
        },
      ],
      ['find, typo (ours)', () => find.find({ q: typos[b++ % typos.length]!, limit: 20 }, 0).totalFound],
    ],
    ctx.live,
  );
  const venues = ctx.venues;
  // The name index built once more, timed (the engine's own was built by warm()).
  const built = timeOnce(() => createFindService(engine.store, engine.spatial, { places: null }));
  const indexBytes = built.value.byteSize;
  const distinctWords = built.value.names.tokens.length;

  // Naive: names pre-normalised into " word word" strings once; a query word matches a name
  // word prefix when " " + word occurs in it. Same normaliser as the index (same semantics).
  const padded = venues.map((v) => ` ${nameTokens(v.name).join(' ')}`);
  const queryWords = (q: string): string[] => {
    const w = nameTokens(q);
    const s = w.filter((x) => !OPTIONAL_QUERY_WORDS.has(x));
    return [...new Set(s.length > 0 ? s : w)].map((x) => ` ${x}`);
  };
  const matchesAll = (s: string, words: string[]): boolean => {
    for (const w of words) if (!s.includes(w)) return false;
    return true;
  };
  const naiveScan = (q: string): number[] => {
    const words = queryWords(q);
    const out: number[] = [];
    for (let i = 0; i < padded.length; i++) if (matchesAll(padded[i]!, words)) out.push(i);
    return out;
  };
  const hits = new HitBuffer();
  // Location first, then names (the 3.4 ms baseline): radius query, test each name, sort by distance.
  const locationFirst = (q: string, lat: number, lon: number): { i: number; d: number }[] => {
    const words = queryWords(q);
    const n = engine.spatial.withinRadius(lat, lon, RADIUS, hits);
    const out: { i: number; d: number }[] = [];
    for (let h = 0; h < n; h++) if (matchesAll(padded[hits.idx[h]!]!, words)) out.push({ i: hits.idx[h]!, d: hits.dist[h]! });
    out.sort((a, b) => a.d - b.d || (venues[a.i]!.id < venues[b.i]!.id ? -1 : 1));
    return out;
  };
  const fold = (term: string) => term.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
  const miniBuilt = timeOnce(() => {
    const m = new MiniSearch<{ id: number; name: string }>({ fields: ['name'], idField: 'id', processTerm: fold, searchOptions: { processTerm: fold } });
    m.addAll(venues.map((v, i) => ({ id: i, name: v.name })));
    return m;
  });
  const mini = miniBuilt.value;

  // ---- correctness, outside the timed loops
  let matches = 0;
  let nearMatches = 0;
  for (let k = 0; k < partial.length; k++) {
    const q = partial[k]!;
    const expected = naiveScan(q);
    const got = find.find({ q, limit: 20 }, 0);
    if (got.totalFound !== expected.length) throw new Error(`no-centre total differs for ${JSON.stringify(q)}: ${got.totalFound} vs naive ${expected.length}`);
    const set = new Set(expected.map((i) => venues[i]!.id));
    for (const e of got.establishments) if (!set.has(e.id)) throw new Error(`${e.id} is not a naive match of ${JSON.stringify(q)}`);
    const c = centres[k]!;
    const near = locationFirst(q, c.lat, c.lon);
    const gotNear = find.find({ q, lat: c.lat, lon: c.lon, maxDistanceMeters: RADIUS, limit: 20 }, 0);
    if (gotNear.totalFound !== near.length) throw new Error(`centre total differs for ${JSON.stringify(q)}: ${gotNear.totalFound} vs ${near.length}`);
    const ids = near.slice(0, 20).map((h) => venues[h.i]!.id);
    if (JSON.stringify(ids) !== JSON.stringify(gotNear.establishments.map((e) => e.id))) throw new Error(`centre page differs for ${JSON.stringify(q)}`);
    matches += expected.length;
    nearMatches += near.length;
  }
  let typoFound = 0;
  for (const q of typos) if (find.find({ q }, 0).totalFound > 0) typoFound++;

  // ---- timed
  let a = 0;
  const params = { venues: ctx.label, queries: partial.length };
  const noCentreTasks: Array<readonly [string, () => number]> = [
      ['find, no centre (ours)', () => find.find({ q: partial[a++ % partial.length]!, limit: 20 }, 0).totalFound],
      ['find, no centre, page at offset 80 (ours)', () => find.find({ q: partial[a++ % partial.length]!, limit: 20, offset: 80 }, 0).totalFound],
      ['MiniSearch prefix AND', () => mini.search(partial[a++ % partial.length]!, { prefix: true, combineWith: 'AND' }).length],
      ['naive scan', () => naiveScan(partial[a++ % partial.length]!).length],
  ];
  const withCentreTasks: Array<readonly [string, () => number]> = [
      [
        'find, 5 km centre (ours)',
        () => {
          const k = a++ % partial.length;
          return find.find({ q: partial[k]!, lat: centres[k]!.lat, lon: centres[k]!.lon, maxDistanceMeters: RADIUS, limit: 20 }, 0).totalFound;
        },
      ],
      [
        'location first, then names',
        () => {
          const k = a++ % partial.length;
          return locationFirst(partial[k]!, centres[k]!.lat, centres[k]!.lon).length;
        },
      ],
      [
        'MiniSearch, then a bounding-box filter',
        () => {
          const k = a++ % partial.length;
          const c = centres[k]!;
          let n = 0;
          for (const r of mini.search(partial[k]!, { prefix: true, combineWith: 'AND' })) {
            const v = venues[r.id as number]!.location.coordinates;
            if (Math.abs(v[0] - c.lat) < 0.05 && Math.abs(v[1] - c.lon) < 0.08) n++;
          }
          return n;
        },
      ],
  ];
  const typoTasks: Array<readonly [string, () => number]> = [
      ['find, typo (ours)', () => find.find({ q: typos[a++ % typos.length]!, limit: 20 }, 0).totalFound],
      ['MiniSearch fuzzy 0.2', () => mini.search(typos[a++ % typos.length]!, { prefix: true, fuzzy: 0.2, combineWith: 'AND' }).length],
  ];
  const noCentre = measure(noCentreTasks, { timeMs });
  const withCentre = measure(withCentreTasks, { timeMs });
  const typo = measure(typoTasks, { timeMs });
  return [
    {
      workload: 'find by partial name, no centre',
      params: { ...params, meanMatches: Math.round(matches / partial.length) },
      timings: noCentre,
      live: [live[0]!],
      figures: {
        'name index build (ms)': built.ms,
        'name index bytes per venue': indexBytes / N,
        'distinct name words': distinctWords,
        'MiniSearch build (ms)': miniBuilt.ms,
      },
      checks: { 'totals and pages vs naive scan': `${partial.length} queries, ${matches} matches, identical` },
    },
    {
      workload: 'find by partial name, 5 km centre',
      params: { ...params, radiusMeters: RADIUS, meanMatches: Math.round(nearMatches / partial.length) },
      timings: withCentre,
      live: [live[1]!],
      checks: { 'totals and first pages vs location-first scan': `${partial.length} queries, ${nearMatches} matches, identical` },
    },
    {
      workload: 'find with a typo, no centre',
      params: { venues: ctx.label, queries: typos.length },
      timings: typo,
      live: [live[2]!],
      checks: { 'typo queries with results': `${typoFound}/${typos.length}` },
    },
  ];
}
