/**
 * Issue 14: the package as a user meets it. `npm pack`, then install the tarball into fresh
 * folders outside the checkout and, there:
 * - an engine-only install pulls no native module and no HTTP framework;
 * - the README's engine examples (ES module and CommonJS) run as written on the bundled
 *   fixtures and on a real OpenStreetMap import made with the installed CLI, and their
 *   printed answers hold against GeographicLib;
 * - a consumer type-checks on TypeScript 5.x and on the newest TypeScript, with and without
 *   @types/node;
 * - the installed CLI prints its help, and `serve` answers a request once the optional
 *   service packages are installed; installed with install scripts skipped (as npm 12 skips
 *   an unapproved one), `serve` names the commands that build better-sqlite3;
 * - an app that embeds the engine, bundled with esbuild: bundled whole (ES module or
 *   CommonJS), it names the package file it misses; with the package left external, it answers as the installed package does.
 */
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { geodesic, routeDistance } from '../support/oracle.js';
import { hasShared, sharedFile } from '../support/real-data.js';
import { startServe } from '../support/serve-process.js';
import { startPostgres } from '../support/postgres-server.js';
import { fencedBlocks, findFiles, npmInstall, REPO, run, userEnv } from './install-support.js';

const LONDON_OSM = 'osm-london-pubs/london_pubs_overpass_2024-11-25.geojson';
const README = readFileSync(join(REPO, 'README.md'), 'utf8');
const EXAMPLE_ESM = readFileSync(join(REPO, 'examples/quick-start.mjs'), 'utf8');
const EXAMPLE_CJS = readFileSync(join(REPO, 'examples/quick-start.cjs'), 'utf8');
const PKG = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {
  name: string;
  peerDependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

let root = '';
let tarball = '';
let engineDir = '';

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'venue-search-install-'));
  // The suite's globalSetup has just run `npm run build` (test/support/build-package.ts), which is
  // what `prepack` would run again: pack that build, and leave dist/ alone while other files spawn it.
  const packed = run('npm', ['pack', '--ignore-scripts', '--pack-destination', root], REPO, { timeoutMs: 300_000 });
  const name = packed.stdout.trim().split('\n').pop()!;
  tarball = join(root, name);
  expect(existsSync(tarball)).toBe(true);
  engineDir = join(root, 'engine-user');
  run('mkdir', ['-p', engineDir], root);
  run('npm', ['init', '-y'], engineDir);
  npmInstall(engineDir, [tarball]);
}, 600_000);

afterAll(() => {
  if (root !== '') rmSync(root, { recursive: true, force: true });
});

describe('engine-only install from the packed tarball', () => {
  it('builds no native module and installs no HTTP framework or SQLite', () => {
    const modules = join(engineDir, 'node_modules');
    for (const serverOnly of ['fastify', 'better-sqlite3', '@fastify/swagger', 'ajv']) {
      expect(existsSync(join(modules, serverOnly)), serverOnly).toBe(false);
    }
    expect(findFiles(modules, (f) => f.endsWith('.node') || f === 'binding.gyp')).toEqual([]);
    expect(existsSync(join(modules, PKG.name, 'dist/src/index.js'))).toBe(true);
  });

  it('ships source maps that carry their TypeScript (src/ itself is not in the package)', () => {
    const dist = join(engineDir, 'node_modules', PKG.name, 'dist/src');
    expect(existsSync(join(engineDir, 'node_modules', PKG.name, 'src'))).toBe(false);
    const maps = findFiles(dist, (f) => f.endsWith('.js.map'));
    expect(maps.length).toBeGreaterThan(50);
    for (const map of maps) {
      const { sources, sourcesContent } = JSON.parse(readFileSync(map, 'utf8')) as { sources: string[]; sourcesContent?: string[] };
      expect(sourcesContent?.length, map).toBe(sources.length);
      for (const [k, source] of sources.entries()) {
        // the source a map names, resolved from the map's folder as a debugger would, is the repository's file
        const inRepo = join(REPO, relative(join(engineDir, 'node_modules', PKG.name), join(dirname(map), source)));
        expect(sourcesContent![k], map).toBe(readFileSync(inRepo, 'utf8'));
      }
    }
    // the command's bundle (dist/bin) has maps for stack traces: each source they name, resolved
    // from the map's folder, is one of the repository's TypeScript files or a bundled package's
    const bin = join(engineDir, 'node_modules', PKG.name, 'dist/bin');
    const binMaps = findFiles(bin, (f) => f.endsWith('.js.map'));
    expect(binMaps.length).toBeGreaterThan(5);
    const named = new Set<string>();
    for (const map of binMaps) {
      for (const source of (JSON.parse(readFileSync(map, 'utf8')) as { sources: string[] }).sources) {
        named.add(relative(join(engineDir, 'node_modules', PKG.name), join(dirname(map), source)).replace(/\\/g, '/'));
      }
    }
    expect(named).toContain('src/cli/main.ts');
    for (const source of named) {
      expect(source.startsWith('src/') || source.startsWith('node_modules/@sinclair/typebox/'), source).toBe(true);
      expect(existsSync(join(REPO, source)), source).toBe(true);
    }
  });

  it('the README shows the ES module and CommonJS examples exactly as the files run here', () => {
    expect(fencedBlocks(README, 'js')).toContain(EXAMPLE_ESM);
    expect(fencedBlocks(README, 'js')).toContain(EXAMPLE_CJS);
    expect(README).toContain(`npm install ${PKG.name}`);
    // the files the README links are in the package too
    const installed = join(engineDir, 'node_modules', PKG.name);
    expect(readFileSync(join(installed, 'examples/quick-start.mjs'), 'utf8')).toBe(EXAMPLE_ESM);
    expect(readFileSync(join(installed, 'examples/quick-start.cjs'), 'utf8')).toBe(EXAMPLE_CJS);
    // docs/updates.md (shipped in docs/) links its worked example
    expect(readFileSync(join(installed, 'examples/feed-service.mjs'), 'utf8')).toBe(readFileSync(join(REPO, 'examples/feed-service.mjs'), 'utf8'));
  });

  it('exports package.json: require and import of `<name>/package.json` give the installed version', () => {
    const { version } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string };
    const name = JSON.stringify(`${PKG.name}/package.json`);
    expect(run(process.execPath, ['-e', `process.stdout.write(require(${name}).version)`], engineDir).stdout).toBe(version);
    const esm = `import p from ${name} with { type: 'json' }; process.stdout.write(p.version);`;
    expect(run(process.execPath, ['--no-warnings', '--input-type=module', '-e', esm], engineDir).stdout).toBe(version);
  });
});

/** What the README example printed, parsed back. */
interface ExampleOutput {
  centre: [number, number];
  meetUp: Array<{ id: string; distance: number }>;
  corridorTotal: number;
  onTheWay: Array<{ id: string; distance: number; along: number }>;
  found: number;
  findHits: Array<{ id: string; name: string; distance: number }>;
}

function parseExample(stdout: string): ExampleOutput {
  const centre = /^Meet up around (-?[\d.]+), (-?[\d.]+):$/m.exec(stdout);
  const total = /^On the way \((\d+) pubs in the corridor\):$/m.exec(stdout);
  const found = /^Found (\d+) for "red lino" within 5 km of Soho:$/m.exec(stdout);
  expect(centre && total && found, stdout).toBeTruthy();
  return {
    centre: [Number(centre![1]), Number(centre![2])],
    meetUp: [...stdout.matchAll(/^ {2}.+ \[([^\]]+)\] (\d+) m from the centre, score [\d.]+, \d+ min from Soho$/gm)].map((m) => ({ id: m[1]!, distance: Number(m[2]) })),
    corridorTotal: Number(total![1]),
    onTheWay: [...stdout.matchAll(/^ {2}.+ \[([^\]]+)\] (\d+) m off the route, (\d+) m along$/gm)].map((m) => ({ id: m[1]!, distance: Number(m[2]), along: Number(m[3]) })),
    found: Number(found![1]),
    findHits: [...stdout.matchAll(/^ {2}(.+) \[([^\]]+)\] (\d+) m$/gm)].map((m) => ({ name: m[1]!, id: m[2]!, distance: Number(m[3]) })),
  };
}

interface DataVenue {
  id: string;
  name: string;
  lat: number;
  lon: number;
  genres: string[];
}

function readData(path: string): Map<string, DataVenue> {
  const byId = new Map<string, DataVenue>();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const r = JSON.parse(line) as { id: string; name: string; location: { coordinates: [number, number] }; primaryGenre?: string; additionalGenres?: string[] };
    byId.set(r.id, { id: r.id, name: r.name, lat: r.location.coordinates[0], lon: r.location.coordinates[1], genres: [r.primaryGenre ?? '', ...(r.additionalGenres ?? [])] });
  }
  return byId;
}

/** The weighted geographic midpoint, recomputed here from unit vectors (CONTRACT.md). */
function oracleCentre(points: ReadonlyArray<readonly [number, number, number]>): [number, number] {
  let x = 0, y = 0, z = 0;
  for (const [la, lo, w] of points) {
    const p = (la * Math.PI) / 180, l = (lo * Math.PI) / 180;
    x += w * Math.cos(p) * Math.cos(l); y += w * Math.cos(p) * Math.sin(l); z += w * Math.sin(p);
  }
  return [(Math.atan2(z, Math.hypot(x, y)) * 180) / Math.PI, (Math.atan2(y, x) * 180) / Math.PI];
}

const PEOPLE = [[51.539, -0.1426, 1], [51.5136, -0.1365, 1], [51.5265, -0.0787, 1], [51.4613, -0.1156, 0.5]] as const;
const WALK: Array<[number, number]> = [[51.539, -0.1426], [51.5265, -0.0787]];
/** Soho's centre from an independent source (Ordnance Survey / Wikipedia: 51°30′49″N 0°8′2″W). */
const SOHO: [number, number] = [51.5136, -0.134];

function checkExample(stdout: string, data: Map<string, DataVenue>): void {
  const out = parseExample(stdout);
  const [cLat, cLon] = oracleCentre(PEOPLE);
  expect(geodesic(out.centre[0], out.centre[1], cLat, cLon)).toBeLessThan(1.5); // printed to 5 decimals
  expect(out.meetUp.length).toBe(3);
  for (const v of out.meetUp) {
    const d = data.get(v.id)!;
    expect(d, v.id).toBeDefined();
    expect(Math.abs(geodesic(cLat, cLon, d.lat, d.lon) - v.distance)).toBeLessThanOrEqual(1);
    expect(v.distance).toBeLessThanOrEqual(3000);
  }
  // PATH: every pub within 200 m of the walk, by brute force over the data with GeographicLib.
  let inCorridor = 0, nearEdge = 0;
  for (const d of data.values()) {
    if (!d.genres.includes('pub')) continue;
    const r = routeDistance(WALK, d.lat, d.lon);
    if (r.distance <= 200) inCorridor++;
    if (Math.abs(r.distance - 200) < 1) nearEdge++;
  }
  expect(Math.abs(out.corridorTotal - inCorridor)).toBeLessThanOrEqual(nearEdge);
  expect(out.onTheWay.length).toBe(Math.min(3, inCorridor));
  for (const v of out.onTheWay) {
    const d = data.get(v.id)!;
    expect(d.genres).toContain('pub');
    const r = routeDistance(WALK, d.lat, d.lon);
    expect(Math.abs(r.distance - v.distance)).toBeLessThanOrEqual(1);
    expect(Math.abs(r.along - v.along)).toBeLessThanOrEqual(2);
  }
  // find: a typo of "Red Lion" near Soho (resolved by the embedded gazetteer) finds Red Lions.
  expect(out.found).toBeGreaterThan(0);
  expect(out.findHits[0]!.name).toMatch(/red lion/i);
  for (const hit of out.findHits) {
    const d = data.get(hit.id)!;
    expect(hit.distance).toBeLessThanOrEqual(5000);
    expect(geodesic(SOHO[0], SOHO[1], d.lat, d.lon)).toBeLessThan(5000 + 1500);
  }
}

describe('the README shows the examples as they are in examples/', () => {
  it('each example file is a code block of the README, byte for byte', () => {
    const blocks = [...readFileSync(join(REPO, 'README.md'), 'utf8').matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);
    expect(blocks).toContain(EXAMPLE_ESM);
    expect(blocks).toContain(EXAMPLE_CJS);
  });
});

describe('the README engine examples, run as written in the installed package', () => {
  it('ES module example on the bundled fixtures', () => {
    writeFileSync(join(engineDir, 'example.mjs'), EXAMPLE_ESM);
    const fixtures = join(engineDir, 'node_modules', PKG.name, 'fixtures/venues.ndjson');
    copyFileSync(fixtures, join(engineDir, 'venues.ndjson'));
    const { stdout } = run(process.execPath, ['example.mjs'], engineDir);
    checkExample(stdout, readData(fixtures));
  });

  it.runIf(hasShared(LONDON_OSM))('ES module and CommonJS examples on the real OSM London pubs, imported with the installed CLI', () => {
    run(join(engineDir, 'node_modules/.bin/venue-search'), ['import', 'osm', sharedFile(LONDON_OSM), '-o', 'london.ndjson'], engineDir);
    writeFileSync(join(engineDir, 'example.mjs'), EXAMPLE_ESM);
    const london = join(engineDir, 'london.ndjson');
    const { stdout } = run(process.execPath, ['example.mjs', 'london.ndjson'], engineDir);
    checkExample(stdout, readData(london));
    // npm init -y makes a CommonJS package: the .cjs example loads the engine through require().
    writeFileSync(join(engineDir, 'example.cjs'), EXAMPLE_CJS);
    const cjs = run(process.execPath, ['example.cjs', 'london.ndjson'], engineDir);
    expect(cjs.stdout).toMatch(/^Found [1-9]\d* for "red lion" near Soho; nearest: .*Red Lion/im);
  }, 120_000);
});

describe('a service that bundles the engine (esbuild)', () => {
  // Reads the fixtures with 1 and with 2 threads (the second starts a worker thread on a module of
  // the package), searches, and finds with a place name (which reads the package's GB gazetteer),
  // in London and in Paris; prints one JSON line per step: its answer, or the error's name and
  // message. No top-level await: the same app is bundled to CommonJS too.
  const APP = `import { createEngine, createEngineFromFile } from '${PKG.name}';
(async () => {
const step = async (name, run) => {
  try { console.log(JSON.stringify({ step: name, answer: await run() })); }
  catch (err) { console.log(JSON.stringify({ step: name, error: err.name, message: err.message })); }
};
const now = Date.parse('2026-11-27T20:00:00Z');
let engine;
await step('read', async () => { engine = (await createEngineFromFile(process.argv[2])).engine; return engine.size; });
await step('read with 2 threads', async () => (await createEngineFromFile(process.argv[2], { threads: 2 })).engine.size);
await step('search', () => engine.search({ locations: [{ lat: 51.5136, lon: -0.1365 }], mode: { mode: 'POINT', maxDistance: 1500 } }, { now }).totalResults);
await step('find near Soho', () => engine.find({ q: 'red lion', location: 'Soho' }, { now }).establishments.map((e) => e.id));
const paris = createEngine([{ id: 'paris-1', name: 'Le Red Lion', location: { type: 'Point', coordinates: [48.8566, 2.3522] } }]);
await step('find near Paris', () => paris.find({ q: 'red lion', location: 'Paris' }, { now }).establishments.map((e) => e.id));
})();
`;
  type Step = { step: string; answer?: unknown; error?: string; message?: string };
  const steps = (stdout: string): Step[] => stdout.trim().split('\n').map((line) => JSON.parse(line) as Step);

  it('bundled whole, names the package file it misses and the remedy; left external, answers as the installed package does', async () => {
    const { buildSync } = await import('esbuild');
    const entry = join(engineDir, 'bundle-app.mjs');
    writeFileSync(entry, APP);
    const fixtures = join(engineDir, 'node_modules', PKG.name, 'fixtures/venues.ndjson');
    // The oracle: the same app run unbundled, on the installed package.
    const installed = steps(run(process.execPath, [entry, fixtures], engineDir).stdout);
    expect(installed.map((s) => s.error)).toEqual([undefined, undefined, undefined, undefined, undefined]);
    expect((installed[3]!.answer as string[]).length).toBeGreaterThan(0);
    expect(installed[4]!.answer).toEqual(['paris-1']);

    // Bundled whole, deployed to a folder of its own: no node_modules, no package files near it.
    const deployed = join(root, 'deployed/app/dist');
    buildSync({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', outfile: join(deployed, 'app.mjs'), logLevel: 'silent' });
    const whole = steps(run(process.execPath, ['app.mjs', fixtures], deployed).stdout);
    /** A whole bundle's steps: the read and the search answer as installed; the rest name the package file missed (`worker`, `gazetteer`) and the remedy. */
    const expectWholeBundle = (whole: Step[], worker: string, gazetteer: RegExp): void => {
      expect(whole.map((s) => [s.step, s.error])).toEqual([
        ['read', undefined],
        ['read with 2 threads', 'PackageFileMissingError'],
        ['search', undefined],
        ['find near Soho', 'PackageFileMissingError'],
        ['find near Paris', 'PackageFileMissingError'],
      ]);
      expect(whole[0]!.answer).toBe(installed[0]!.answer);
      expect(whole[2]!.answer).toBe(installed[2]!.answer);
      expect(whole[1]!.message).toContain(`cannot find its worker thread module (${worker}): `);
      // Any find with a place name: the default resolver reads the GB gazetteer first, whatever the venues' country.
      for (const find of [whole[3]!, whole[4]!]) expect(find.message).toMatch(gazetteer);
      for (const failed of whole.filter((s) => s.error !== undefined)) {
        expect(failed.message).toContain('esbuild --packages=external or --external:venue-search-engine');
        expect(failed.message).toContain('docs/packaging.md, "Bundling a service that embeds the engine"');
      }
    };
    expectWholeBundle(whole, join(deployed, 'validate-worker.js'), /cannot find its GB gazetteer \(\/.*\/data\/gazetteer\/gb-places\.tsv\): /);

    // Bundled whole into CommonJS (audit 66b F1): there import.meta is {}, so the package
    // cannot look beside itself at all. Before, the read with 2 threads was an invalid_data
    // blamed on the venues file ("cannot read ...: Cannot read properties of undefined") and a
    // find a bare TypeError.
    buildSync({ entryPoints: [entry], bundle: true, platform: 'node', format: 'cjs', outfile: join(deployed, 'app.cjs'), logLevel: 'silent' });
    const wholeCjs = steps(run(process.execPath, ['app.cjs', fixtures], deployed).stdout);
    const noUrl = ': this code has no import.meta.url, as in a CommonJS bundle';
    expectWholeBundle(wholeCjs, `validate-worker.js${noUrl}`, new RegExp(`cannot find its GB gazetteer \\(data/gazetteer/gb-places\\.tsv${noUrl}\\): `));

    // The remedy the message gives: the package left out of the bundle, installed beside it.
    buildSync({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', packages: 'external', outfile: join(engineDir, 'dist/app.mjs'), logLevel: 'silent' });
    const external = steps(run(process.execPath, ['dist/app.mjs', fixtures], engineDir).stdout);
    expect(external).toEqual(installed);
  }, 120_000);
});

describe('declarations in a consumer project', () => {
  // Uses only engine types and no Node or DOM globals, so it must compile with neither.
  const CONSUMER = `import { createEngine, readVenues, restoreSnapshot, isVenueSearchError, type VenueRecord, type SearchBody, type SearchResponse } from '${PKG.name}';
const { venues } = await readVenues('venues.ndjson');
const engine = createEngine(venues, { validate: false });
const page: SearchResponse = engine.search({ locations: [{ lat: 51.5, lon: -0.1 }], mode: { mode: 'POINT', maxDistance: 1000 } }, { limit: 3 });
// the README's advice: a body written \`satisfies SearchBody\` is checked when compiled
const body = { locations: [{ lat: 51.5, lon: -0.1 }], mode: { mode: 'PATH', maxDistance: 200 } } satisfies SearchBody;
// @ts-expect-error: "POINTS" is not a mode
const wrong = { locations: [{ lat: 51.5, lon: -0.1 }], mode: { mode: 'POINTS', maxDistance: 200 } } satisfies SearchBody;
engine.search(body);
engine.search(wrong);
const first: string | undefined = page.establishments[0]?.name;
const record: VenueRecord | undefined = venues[0];
let code: string | undefined;
try { engine.find({ q: 'x', location: 'Nowhere' }); } catch (e) { if (isVenueSearchError(e)) code = e.code; }
export { first, record, code, restoreSnapshot };
`;
  const tsconfig = (types: string[], files = ['consumer.mts']) =>
    JSON.stringify({ compilerOptions: { target: 'ES2022', lib: ['ES2022'], module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noUncheckedIndexedAccess: true, noEmit: true, types }, files });
  // A CommonJS consumer: compiled to require() calls, which load the package's ES modules (Node 20.19+).
  const CJS_CONSUMER = `import { createEngine, isVenueSearchError, type VenueRecord, type SearchResponse } from '${PKG.name}';
const venues: VenueRecord[] = [{ id: 'a', name: 'The Red Lion', location: { type: 'Point', coordinates: [51.5, -0.1] } }];
const page: SearchResponse = createEngine(venues).search({ locations: [{ lat: 51.5, lon: -0.1 }], mode: { mode: 'POINT', maxDistance: 1000 } });
export const found: number = page.totalResults;
export const isError = isVenueSearchError;
`;
  // `module: commonjs` alone resolves as node10 (TypeScript 5; removed in 7), which reads no `exports`: the
  // package's top-level `types` serves it. NodeNext in a .cts file is how a CommonJS project states it on any version.
  const cjsTsconfig = (file: string, module: 'CommonJS' | 'NodeNext', outDir: string) =>
    JSON.stringify({ compilerOptions: { target: 'ES2022', lib: ['ES2022'], module, strict: true, outDir, types: [] }, files: [file] });

  it('type-checks on TypeScript 5.x and the newest TypeScript, with and without @types/node; the README example too (it reads process.argv: with @types/node); a CommonJS consumer compiles and runs', () => {
    writeFileSync(join(engineDir, 'consumer.mts'), CONSUMER);
    writeFileSync(join(engineDir, 'example.mts'), EXAMPLE_ESM);
    // Both compilers in one install, each under its own name (the two would claim one `tsc` in .bin);
    // @types/node is installed only for the second pass, so the first finds no Node types at all.
    const compilers = ['typescript@5', 'typescript@latest'].map((spec) => ({ spec, folder: spec.replace('@', '-') }));
    npmInstall(engineDir, ['--save-dev', ...compilers.map(({ spec, folder }) => `${folder}@npm:${spec}`)]);
    const tsc = (folder: string, args: string[]) => run(process.execPath, [join(engineDir, 'node_modules', folder, 'bin/tsc'), ...args], engineDir, { allowFailure: true });
    const versions = compilers.map(({ folder }) => tsc(folder, ['--version']).stdout.trim());
    expect(new Set(versions).size, versions.join(', ')).toBe(2);
    compilers.forEach(({ folder }, k) => {
      const version = versions[k]!;
      writeFileSync(join(engineDir, 'tsconfig.json'), tsconfig([]));
      const bare = tsc(folder, ['-p', '.']);
      expect(bare.status, `${version} without @types/node:\n${bare.stdout}${bare.stderr}`).toBe(0);
      const cjsConfigs: Array<[string, 'CommonJS' | 'NodeNext']> = [['consumer-cjs.cts', 'NodeNext']];
      if (version.startsWith('Version 5.')) cjsConfigs.push(['consumer-cjs.ts', 'CommonJS']);
      for (const [file, module] of cjsConfigs) {
        writeFileSync(join(engineDir, file), CJS_CONSUMER);
        writeFileSync(join(engineDir, 'tsconfig.json'), cjsTsconfig(file, module, 'out-cjs'));
        const cjs = tsc(folder, ['-p', '.']);
        expect(cjs.status, `${version}, ${file} as ${module}:\n${cjs.stdout}${cjs.stderr}`).toBe(0);
        const compiled = `./out-cjs/${file.replace(/\.c?ts$/, (ext) => (ext === '.cts' ? '.cjs' : '.js'))}`;
        expect(run(process.execPath, ['-e', `process.stdout.write(String(require(${JSON.stringify(compiled)}).found))`], engineDir).stdout).toBe('1');
        rmSync(join(engineDir, 'out-cjs'), { recursive: true, force: true });
      }
    });
    npmInstall(engineDir, ['--save-dev', '@types/node@20']);
    compilers.forEach(({ folder }, k) => {
      writeFileSync(join(engineDir, 'tsconfig.json'), tsconfig(['node'], ['consumer.mts', 'example.mts']));
      const withNode = tsc(folder, ['-p', '.']);
      expect(withNode.status, `${versions[k]} with @types/node:\n${withNode.stdout}${withNode.stderr}`).toBe(0);
    });
  }, 300_000);
});

/**
 * A folder with the package and all its service peers (pg included, but no @types/pg), and the
 * type packages the README names for /http (@types/node, @types/better-sqlite3), installed in one
 * `npm install` and shared by the tests that need them. better-sqlite3 is linked from this checkout's
 * installed, already compiled copy: a fresh one is the same package compiled again from source
 * (about 2 minutes), which proves nothing more about ours. Install scripts are skipped so that
 * npm does not rebuild that linked copy in place (none of the other packages, nor ours, has one).
 */
let serviceDir = '';
function serviceUserDir(): string {
  if (serviceDir !== '') return serviceDir;
  const dir = join(root, 'service-user');
  run('mkdir', ['-p', dir], root);
  run('npm', ['init', '-y'], dir);
  const peers = Object.keys(PKG.peerDependencies).map((p) => (p === 'better-sqlite3' ? join(REPO, 'node_modules/better-sqlite3') : `${p}@${PKG.devDependencies[p]}`));
  const types = ['@types/node@20', `@types/better-sqlite3@${PKG.devDependencies['@types/better-sqlite3']}`];
  npmInstall(dir, [tarball, ...peers, ...types], { ignoreScripts: true });
  serviceDir = dir;
  return dir;
}

describe('the installed command line', () => {
  it('prints its help, and says what to install when `serve` lacks the service packages', () => {
    const cli = join(engineDir, 'node_modules/.bin/venue-search');
    const help = run(cli, ['--help'], engineDir);
    for (const command of ['import', 'serve', 'accounts', 'keys', 'snapshot']) expect(help.stdout).toMatch(new RegExp(`^ {2}${command}\\b`, 'm'));
    // No search command: the help says where searches go instead.
    expect(help.stdout).toContain('POST /v1/search/');
    expect(help.stdout).toContain('engine.search');
    // a sub-command's help by `help` as by `--help` (commander's own help command takes one name)
    expect(run(cli, ['help', 'import', 'osm'], engineDir).stdout).toBe(run(cli, ['import', 'osm', '--help'], engineDir).stdout);
    expect(run(cli, ['help', 'import', 'osm'], engineDir).stdout).toContain('Usage: venue-search import osm ');
    // the installed package's version (the bundled command reads package.json as dist/src/cli/main.js does: three folders up)
    const version = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;
    expect(run(cli, ['--version'], engineDir).stdout.trim()).toBe(version);
    const serve = run(cli, ['serve', '--data', 'venues.ndjson'], engineDir, { allowFailure: true });
    expect(serve.status).toBe(1);
    expect(serve.stderr).toContain('npm install fastify');
  });

  it('serves the bundled fixtures and answers a request once the service packages are installed', async () => {
    const serviceDir = serviceUserDir();
    // The HTTP entry loads from CommonJS too (require of an ES module graph without top-level await).
    const cjs = run(process.execPath, ['-e', `process.stdout.write(typeof require('${PKG.name}/http').buildApp)`], serviceDir);
    expect(cjs.stdout).toBe('function');
    const fixtures = join(serviceDir, 'node_modules', PKG.name, 'fixtures/venues.ndjson');
    const { child, base, key } = await startServe(
      join(serviceDir, 'node_modules/.bin/venue-search'),
      ['serve', '--data', fixtures, '--dev', '--port', '0', '--db', join(serviceDir, 'dev.sqlite')],
      serviceDir,
      userEnv(),
    );
    try {
      const res = await fetch(`${base}/v1/find?q=red%20lion`, { headers: { 'API-Key': key } });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { totalFound: number; establishments: Array<{ name: string }> };
      expect(body.totalFound).toBeGreaterThan(0);
      expect(body.establishments[0]!.name).toMatch(/red lion/i);
    } finally {
      child.kill('SIGTERM');
    }
  }, 300_000);

  it('says how to build better-sqlite3 when its install script did not run (npm 12 runs it only when allowed)', () => {
    const unbuiltDir = join(root, 'unbuilt-user');
    run('mkdir', ['-p', unbuiltDir], root);
    run('npm', ['init', '-y'], unbuiltDir);
    // The same packages as a user installs them, with install scripts skipped as npm 12 skips
    // an unapproved one: better-sqlite3 arrives without its binary.
    npmInstall(unbuiltDir, [tarball, ...Object.keys(PKG.peerDependencies).map((p) => `${p}@${PKG.devDependencies[p]}`)], { ignoreScripts: true });
    expect(findFiles(join(unbuiltDir, 'node_modules/better-sqlite3'), (f) => f.endsWith('.node'))).toEqual([]);
    const fixtures = join(unbuiltDir, 'node_modules', PKG.name, 'fixtures/venues.ndjson');
    const cli = join(unbuiltDir, 'node_modules/.bin/venue-search');
    const serve = run(cli, ['serve', '--data', fixtures, '--dev', '--port', '0', '--db', join(unbuiltDir, 'dev.sqlite')], unbuiltDir, {
      allowFailure: true,
      env: userEnv({ VENUE_SEARCH_START_TIMES: '1' }),
    });
    expect(serve.status).toBe(1);
    // said before the venue data is read (audit 72b: after it, minutes on a large file)
    expect(serve.stderr).toContain('venue-search start: command parsed');
    expect(serve.stderr).not.toContain('engine loaded');
    expect(serve.stderr).toContain(`cannot open the accounts database ${join(unbuiltDir, 'dev.sqlite')}`);
    expect(serve.stderr).toContain('better-sqlite3 is installed but its native module was never built');
    expect(serve.stderr).toContain('\n  npm approve-scripts better-sqlite3 && npm rebuild better-sqlite3\n');
    expect(serve.stderr).not.toMatch(/Tried:|\n\s+at /);
  }, 300_000);
});

describe('declarations of the service entries with skipLibCheck false (README: /http needs @types/better-sqlite3, /postgres also @types/pg)', () => {
  const tsconfig = (file: string) =>
    JSON.stringify({ compilerOptions: { target: 'ES2022', lib: ['ES2022'], module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: false, noEmit: true, types: ['node'] }, files: [file] });
  const HTTP_CONSUMER = `import { buildApp, SqliteAccountsStore, MissingDatabaseClientError } from '${PKG.name}/http';
export const build: typeof buildApp = buildApp;
export const store = (path: string): SqliteAccountsStore => new SqliteAccountsStore(path);
export const isMissing = (e: unknown): boolean => e instanceof MissingDatabaseClientError;
`;
  const POSTGRES_CONSUMER = `import { PostgresAccountsStore } from '${PKG.name}/postgres';
export const open: typeof PostgresAccountsStore.open = PostgresAccountsStore.open;
`;

  it('/http type-checks with @types/node and @types/better-sqlite3 and no pg types (audit 70b F1); /postgres without @types/pg fails naming pg', () => {
    // The service folder has pg itself (JavaScript only) and the README's types for /http, but no
    // @types/pg; typed by this checkout's TypeScript.
    const dir = serviceUserDir();
    expect(existsSync(join(dir, 'node_modules/@types/better-sqlite3/index.d.ts'))).toBe(true);
    expect(existsSync(join(dir, 'node_modules/@types/pg'))).toBe(false);
    const tsc = join(REPO, 'node_modules/typescript/bin/tsc');
    const check = (file: string, source: string) => {
      writeFileSync(join(dir, file), source);
      writeFileSync(join(dir, 'tsconfig.json'), tsconfig(file));
      return run(process.execPath, [tsc, '-p', '.'], dir, { allowFailure: true });
    };
    const http = check('http-consumer.mts', HTTP_CONSUMER);
    expect(http.status, `${http.stdout}${http.stderr}`).toBe(0);
    const postgres = check('postgres-consumer.mts', POSTGRES_CONSUMER);
    expect(postgres.status).not.toBe(0);
    expect(postgres.stdout).toMatch(/error TS\d+: (Cannot find module|Could not find a declaration file for module) 'pg'/);
  }, 300_000);
});

describe('a service on PostgreSQL only: the service packages and pg, no better-sqlite3', () => {
  it('imports the HTTP and PostgreSQL entries, keeps its accounts on a real server, and names better-sqlite3 when an SQLite file is asked for', async () => {
    const pgDir = join(root, 'postgres-user');
    run('mkdir', ['-p', pgDir], root);
    run('npm', ['init', '-y'], pgDir);
    const peers = Object.keys(PKG.peerDependencies)
      .filter((p) => p !== 'better-sqlite3')
      .map((p) => `${p}@${PKG.devDependencies[p]}`);
    npmInstall(pgDir, [tarball, ...peers]);
    expect(existsSync(join(pgDir, 'node_modules/better-sqlite3'))).toBe(false);
    // both entries load without better-sqlite3; the SQLite store says what it needs when made
    const probe = run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const http = await import('${PKG.name}/http'); const pg = await import('${PKG.name}/postgres');
         let sqlite = 'opened'; try { new http.SqliteAccountsStore(':memory:'); } catch (err) { sqlite = err.name + ': ' + err.message; }
         console.log(JSON.stringify({ buildApp: typeof http.buildApp, open: typeof pg.PostgresAccountsStore.open, sqlite }));`,
      ],
      pgDir,
    );
    const seen = JSON.parse(probe.stdout) as { buildApp: string; open: string; sqlite: string };
    expect(seen).toEqual({
      buildApp: 'function',
      open: 'function',
      sqlite: 'MissingDatabaseClientError: an SQLite accounts database needs the optional peer dependency better-sqlite3, which is not installed: npm install better-sqlite3',
    });
    const cli = join(pgDir, 'node_modules/.bin/venue-search');
    // the default --db is an SQLite file: one line naming the package, no stack trace
    const sqliteCreate = run(cli, ['accounts', 'create', '--plan', 'StartUp', '--db', join(pgDir, 'accounts.sqlite')], pgDir, { allowFailure: true });
    expect(sqliteCreate.status).toBe(1);
    expect(sqliteCreate.stderr).toContain('needs the optional peer dependency better-sqlite3, which is not installed: npm install better-sqlite3');
    expect(sqliteCreate.stderr).not.toMatch(/\n\s+at /);
    const server = await startPostgres();
    try {
      const url = await server.createDatabase('pg_only_install');
      const created = run(cli, ['accounts', 'create', '--plan', 'StartUp', '--db', url], pgDir);
      const account = JSON.parse(created.stdout) as { accountId: string; plan: string };
      expect(account.plan).toBe('StartUp');
      // read back through the library's own PostgreSQL entry, as an operator tool would
      const read = run(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `const { PostgresAccountsStore } = await import('${PKG.name}/postgres');
           const store = await PostgresAccountsStore.open(${JSON.stringify(url)});
           const found = await store.getAccount(${JSON.stringify(account.accountId)});
           await store.close();
           console.log(JSON.stringify({ id: found.id, plan: found.plan }));`,
        ],
        pgDir,
      );
      expect(JSON.parse(read.stdout)).toEqual({ id: account.accountId, plan: 'StartUp' });
    } finally {
      await server.stop();
    }
  }, 300_000);
});
