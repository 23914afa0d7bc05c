import { distance as turfDistance } from '@turf/turf';
import { beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine.js';
import { createFindService, type FindService } from '../../src/find/find.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { HAVE_OSM_PUBS, loadOsmPubs } from './osm-pubs.js';

// Brute-force oracle of the documented matching rule, written independently of src/find:
// each significant query word must be a prefix of some word of the name, after lower-casing,
// dropping accents and apostrophes and splitting on anything that is not a letter or digit.
const FILLER = new Set(['the', 'a', 'an', 'of', 'and', 'ye']);
function words(s: string): string[] {
  return s
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/&/g, ' and ')
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '');
}
function oracleMatches(name: string, query: string): boolean {
  let q = words(query);
  const sig = q.filter((w) => !FILLER.has(w));
  if (sig.length > 0) q = sig;
  const n = words(name);
  return q.every((w) => n.some((x) => x.startsWith(w)));
}
/** Metres by turf (spherical, mean Earth radius): an oracle independent of src/geo. */
function oracleMeters(lat1: number, lon1: number, lat2: number, lon2: number): number {
  return turfDistance([lon1, lat1], [lon2, lat2], { units: 'meters' });
}

const NOW = Date.UTC(2026, 5, 12, 19, 0); // a Friday evening in summer

describe.skipIf(!HAVE_OSM_PUBS)('find on OSM London pubs', () => {
  let venues: VenueRecord[];
  let find: FindService;
  const cafe: VenueRecord = { id: 'test/cafe-rouge', name: 'Café Rouge', location: { type: 'Point', coordinates: [51.5115, -0.1235] } };

  beforeAll(() => {
    venues = [...loadOsmPubs(), cafe];
    const engine = createEngine(venues);
    find = createFindService(engine.store, engine.spatial);
  });

  /** Every result of a find, following the pages. */
  function all(params: Parameters<FindService['find']>[0]) {
    const out = [];
    for (let offset = 0; ; offset += 100) {
      const page = find.find({ ...params, limit: 100, offset }, NOW);
      out.push(...page.establishments);
      if (page.establishments.length < 100) return { total: page.totalFound, results: out };
    }
  }

  it('prefix "red li" finds exactly the names with words starting red + li (Red Lion), vs brute force', () => {
    const { total, results } = all({ q: 'red li' });
    const expected = venues.filter((v) => oracleMatches(v.name, 'red li')).map((v) => v.id).sort();
    expect(expected.length).toBeGreaterThanOrEqual(20);
    expect(results.map((e) => e.id).sort()).toEqual(expected);
    expect(total).toBe(expected.length);
    expect(results.filter((e) => /^(the )?red lion$/i.test(e.name)).length).toBeGreaterThanOrEqual(15);
  });

  it('relevance without a centre: a name that is exactly "Red Lion" ranks before "The Red Lion & Pineapple"; no distanceMeters', () => {
    const page = find.find({ q: 'red lion' }, NOW);
    expect(page.searchLocation).toBeUndefined();
    expect(page.maxDistanceMeters).toBeUndefined();
    expect(page.establishments[0]!.name).toMatch(/^(The )?Red Lion$/);
    const names = all({ q: 'red lion' }).results.map((e) => e.name);
    expect(names.indexOf('The Red Lion & Pineapple')).toBeGreaterThan(names.lastIndexOf('Red Lion'));
    for (const e of page.establishments) expect(e).not.toHaveProperty('distanceMeters');
  });

  it('accent: "cafe" finds "Café Rouge" and "The Park Café-Bar-Restaurant"; "café" finds "Nova Cafe"', () => {
    const names = all({ q: 'cafe' }).results.map((e) => e.name);
    expect(names).toContain('Café Rouge');
    expect(names).toContain('The Park Café-Bar-Restaurant');
    expect(all({ q: 'CAFÉ' }).results.map((e) => e.name)).toContain('Nova Cafe');
  });

  it('typo: "wetherspon" (one letter missing) finds the Wetherspoons pubs', () => {
    const names = all({ q: 'wetherspon' }).results.map((e) => e.name);
    const expected = venues.filter((v) => /wetherspoon/i.test(v.name)).map((v) => v.name);
    expect(expected.length).toBeGreaterThanOrEqual(2);
    for (const n of expected) expect(names).toContain(n);
  });

  it('typo in a whole word: "Red Loin" (transposition) still finds Red Lion; 3-letter words get no typo budget', () => {
    expect(all({ q: 'red loin' }).results.some((e) => /red lion/i.test(e.name))).toBe(true);
    expect(find.find({ q: 'xqz' }, NOW).totalFound).toBe(0);
  });

  it('multi-word: "lion unicorn" finds "Wetherspoons - The Lion & The Unicorn"; "kings head" equals brute force', () => {
    expect(all({ q: 'lion unicorn' }).results.map((e) => e.name)).toContain('Wetherspoons - The Lion & The Unicorn');
    const got = all({ q: 'kings head' }).results.map((e) => e.id).sort();
    const expected = venues.filter((v) => oracleMatches(v.name, 'kings head')).map((v) => v.id).sort();
    expect(expected.length).toBeGreaterThan(10);
    expect(got).toEqual(expected);
  });

  it("punctuation: \"O'Neill's\", \"oneills\" and \"O’Neills\" (curly apostrophe) find the same O'Neills pubs", () => {
    const a = all({ q: "O'Neill's" }).results.map((e) => e.id).sort();
    const b = all({ q: 'oneills' }).results.map((e) => e.id).sort();
    const c = all({ q: 'O’Neills' }).results.map((e) => e.id).sort();
    expect(a.length).toBeGreaterThanOrEqual(8);
    expect(b).toEqual(a);
    expect(c).toEqual(a);
    const expected = venues.filter((v) => oracleMatches(v.name, "O'Neill's")).map((v) => v.id).sort();
    expect(a).toEqual(expected);
  });

  it('"the" alone is searched as a word (not dropped) and pages never repeat or skip a venue', () => {
    const { total, results } = all({ q: 'the' });
    expect(total).toBe(venues.filter((v) => oracleMatches(v.name, 'the')).length);
    expect(new Set(results.map((e) => e.id)).size).toBe(results.length);
    expect(results.length).toBe(total);
  });

  it('one word without a centre (short prefixes too): pages, their order and totalFound equal a brute-force ranking by the documented key, then id', () => {
    // The documented key (docs/find.md): exact word 3, prefix 2; +1 when the query word
    // matches the name's first significant word (one leading filler skipped); then fewer words first.
    const oracleKey = (name: string, q: string): number => {
      const n = words(name);
      const quality = (x: string | undefined) => (x === q ? 3 : x !== undefined && x.startsWith(q) ? 2 : 0);
      const best = Math.max(0, ...n.map(quality));
      if (best === 0) return 0;
      const lead = n.length > 1 && FILLER.has(n[0]!) ? n[1] : n[0];
      return (best + (quality(lead) > 0 ? 1 : 0)) * 64 + 63 - Math.min(n.length, 63);
    };
    for (const q of ['c', 't', 'th', 'red', 'the', 'k', 'cafe']) {
      const ranked = venues
        .map((v) => ({ id: v.id, key: oracleKey(v.name, q) }))
        .filter((m) => m.key > 0)
        .sort((a, b) => b.key - a.key || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        .map((m) => m.id);
      for (const [offset, limit] of [[0, 20], [0, 1], [37, 13], [ranked.length - 5, 20]] as const) {
        const page = find.find({ q, offset: Math.max(0, offset), limit }, NOW);
        expect(page.totalFound, q).toBe(ranked.length);
        expect(page.establishments.map((e) => e.id), `${q} at ${offset}`).toEqual(ranked.slice(Math.max(0, offset), Math.max(0, offset) + limit));
      }
    }
  });

  it('a query with filler or repeated words: pages equal a brute-force ranking by the documented key with the exact-name rule (audit 59b)', () => {
    // docs/find.md: per significant query word (fillers dropped, repeats once) the best quality
    // over the name's words, summed; +1 when the first matches the name's lead word; then a
    // name equal to the whole query as typed first; then fewer words first.
    const oracleKey = (name: string, q: string): number => {
      const typed = words(q);
      const significant = [...new Set(typed.filter((w) => !FILLER.has(w)))];
      const n = words(name);
      const quality = (w: string, x: string | undefined) => (x === w ? 3 : x !== undefined && x.startsWith(w) ? 2 : 0);
      let score = 0;
      for (const w of significant) {
        const best = Math.max(0, ...n.map((x) => quality(w, x)));
        if (best === 0) return 0;
        score += best;
      }
      const lead = n.length > 1 && FILLER.has(n[0]!) ? n[1] : n[0];
      if (quality(significant[0]!, lead) > 0) score += 1;
      if (n.join(' ') === typed.join(' ')) return score * 64 + 63;
      return score * 64 + 63 - Math.min(n.length, 63);
    };
    for (const q of ['the crown', 'The Red Lion', 'the kings head', 'red red lion', 'the prince of wales', 'The Queens']) {
      const ranked = venues
        .map((v) => ({ id: v.id, key: oracleKey(v.name, q) }))
        .filter((m) => m.key > 0)
        .sort((a, b) => b.key - a.key || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        .map((m) => m.id);
      expect(ranked.length, q).toBeGreaterThan(1);
      const page = find.find({ q, limit: 20 }, NOW);
      expect(page.totalFound, q).toBe(ranked.length);
      expect(page.establishments.map((e) => e.id), q).toEqual(ranked.slice(0, 20));
    }
    // every name of the data, searched as it is written, finds a venue of that name first
    const byName = new Map(venues.map((v) => [words(v.name).join(' '), v.name]));
    let checked = 0;
    for (const [key, name] of byName) {
      if (key === '' || name.length > 200) continue;
      const first = find.find({ q: name, limit: 1 }, NOW).establishments[0];
      expect(first === undefined ? null : words(first.name).join(' '), name).toBe(key);
      checked++;
    }
    expect(checked).toBeGreaterThan(2000);
  });

  // Centre near Trafalgar Square; a rare word (names first) and a common one (radius first).
  for (const [q, plan] of [
    ['red', 'names-then-distance'],
    ['the', 'radius-then-names'],
  ] as const) {
    it(`proximity "${q}" within 2 km of Trafalgar Square (${plan}): set and order match turf + brute force`, () => {
      const lat = 51.508;
      const lon = -0.128;
      const radius = 2000;
      const { total, results } = all({ q, lat, lon, maxDistanceMeters: radius });
      expect(find.lastPlan).toBe(plan);
      const tol = 0.005;
      // Venues clearly inside / outside by the oracle; those within 0.5 % of the edge may go either way.
      const oracle = venues.filter((v) => oracleMatches(v.name, q)).map((v) => ({ id: v.id, d: oracleMeters(lat, lon, v.location.coordinates[0], v.location.coordinates[1]) }));
      const surely = oracle.filter((o) => o.d < radius * (1 - tol)).map((o) => o.id);
      const maybe = new Set(oracle.filter((o) => o.d <= radius * (1 + tol)).map((o) => o.id));
      const got = results.map((e) => e.id);
      expect(surely.length).toBeGreaterThan(3);
      for (const id of surely) expect(got).toContain(id);
      for (const id of got) expect(maybe.has(id)).toBe(true);
      expect(total).toBe(got.length);
      const oracleById = new Map(oracle.map((o) => [o.id, o.d]));
      let prev = 0;
      for (const e of results) {
        const d = oracleById.get(e.id)!;
        expect(Math.abs(e.distanceMeters! - d)).toBeLessThanOrEqual(d * tol + 0.5);
        // order by oracle distance, ties within tolerance allowed
        expect(d).toBeGreaterThanOrEqual(prev * (1 - tol) - 0.5);
        prev = Math.max(prev, d);
      }
    });
  }

  it('with a centre: searchLocation, maxDistanceMeters default 5000 and distance order are reported', () => {
    const page = find.find({ name: 'red', lat: 51.5074, lon: -0.1278 }, NOW);
    expect(page.searchLocation).toEqual({ Lat: 51.5074, Lon: -0.1278 });
    expect(page.maxDistanceMeters).toBe(5000);
    const d = page.establishments.map((e) => e.distanceMeters!);
    expect([...d].sort((a, b) => a - b)).toEqual(d);
    expect(Math.max(...d)).toBeLessThanOrEqual(5000);
  });
});
