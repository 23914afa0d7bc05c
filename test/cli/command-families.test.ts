/**
 * The command line loads only the command family it runs (src/cli/main.ts, COMMAND_FAMILIES):
 * `--version` loads no family, `import` never loads the HTTP service's packages, `serve` does.
 * The command is a bundle (dist/bin, scripts/build-bin.mjs): each family a chunk of its own,
 * loaded by `import()`. Two oracles, both Node's and the bundler's own records, not ours:
 * - the CommonJS packages a process loaded (require.cache, read at exit by a preloaded probe):
 *   fastify, better-sqlite3 and commander are CommonJS packages outside the bundle, so their
 *   loading shows there;
 * - the files a process loaded as ES modules (a module resolution hook records them), each
 *   read through its source map (`sources`: the TypeScript files and packages esbuild put in
 *   it), so a chunk holding TypeBox or the engine names them.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_MAIN } from '../support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'command-families-'));
const PROBE = join(dir, 'probe.cjs');
writeFileSync(
  PROBE,
  `process.on('exit', () => {
    const names = new Set();
    for (const file of Object.keys(require.cache)) {
      const m = /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(file);
      if (m) names.add(m[1]);
    }
    require('node:fs').writeFileSync(process.env.PROBE_OUT, JSON.stringify([...names].sort()));
  });\n`,
);

/** Registers a resolve hook that appends every module URL the process resolves to $ESM_OUT, one a line. */
const ESM_PROBE = join(dir, 'esm-probe.mjs');
writeFileSync(join(dir, 'esm-hooks.mjs'), `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const found = await next(specifier, context);
  appendFileSync(process.env.ESM_OUT, found.url + '\\n');
  return found;
}\n`);
writeFileSync(ESM_PROBE, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(join(dir, 'esm-hooks.mjs')).href)});\n`);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The package of a node_modules path (`@scope/name` or `name`), or undefined. */
function packageOf(path: string): string | undefined {
  return /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path)?.[1];
}

/**
 * What `venue-search ...args` loaded: the packages (CommonJS from require.cache, and those whose
 * code was in an ES module file it loaded, by that file's source map), the files of our
 * sources (src/..., from the source maps), and what it printed.
 */
function loadedBy(...args: string[]): { packages: string[]; sources: string[]; stdout: string; stderr: string; status: number | null } {
  const name = args.join('-').replace(/\W+/g, '_');
  const cjsOut = join(dir, `${name}.json`);
  const esmOut = join(dir, `esm-${name}.txt`);
  writeFileSync(esmOut, '');
  const run = spawnSync(process.execPath, ['--require', PROBE, '--import', ESM_PROBE, CLI_MAIN, ...args], { encoding: 'utf8', env: { ...process.env, PROBE_OUT: cjsOut, ESM_OUT: esmOut } });
  const packages = new Set(JSON.parse(readFileSync(cjsOut, 'utf8')) as string[]);
  const sources = new Set<string>();
  for (const url of new Set(readFileSync(esmOut, 'utf8').split('\n'))) {
    if (!url.startsWith('file:')) continue; // node: built-ins
    const file = fileURLToPath(url);
    const map = `${file}.map`;
    const files = existsSync(map) ? (JSON.parse(readFileSync(map, 'utf8')) as { sources: string[] }).sources.map((s) => resolve(dirname(file), s)) : [file];
    for (const f of files) {
      const pkg = packageOf(f);
      if (pkg !== undefined) packages.add(pkg);
      else sources.add(relative(ROOT, f).replace(/\\/g, '/'));
    }
  }
  return { packages: [...packages].sort(), sources: [...sources].sort(), stdout: run.stdout, stderr: run.stderr, status: run.status };
}

const SERVICE_PACKAGES = ['fastify', 'better-sqlite3'];

describe('the command line loads the family it runs, no other', () => {
  it('--version loads only commander, and prints the package version', () => {
    const version = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
    const run = loadedBy('--version');
    expect(run.stdout.trim()).toBe(version);
    expect(run.packages).toEqual(['commander']);
    // the probe reads the bundle's maps: the entry's own sources are there
    expect(run.sources).toContain('src/cli/main.ts');
  });

  it('import, snapshot and venues do not load the HTTP service; serve, accounts and keys do (the probe sees them)', () => {
    for (const args of [['import', 'osm', '--help'], ['snapshot', '--help'], ['venues', 'upsert', '--help'], ['help', 'import', 'fhrs']]) {
      const run = loadedBy(...args);
      expect(run.status, args.join(' ')).toBe(0);
      expect(run.stdout, args.join(' ')).toMatch(/^Usage: venue-search /);
      for (const name of SERVICE_PACKAGES) expect(run.packages, `${args.join(' ')}: ${name}`).not.toContain(name);
    }
    for (const args of [['serve', '--help'], ['accounts', 'create', '--help'], ['help', 'keys']]) {
      const run = loadedBy(...args);
      expect(run.status, args.join(' ')).toBe(0);
      // better-sqlite3 itself loads only when an accounts database is opened
      expect(run.packages, args.join(' ')).toContain('fastify');
    }
  });

  it("venues loads neither TypeBox nor the engine: an operator's upsert starts as a small HTTP client", () => {
    const engineParts = (run: { packages: string[]; sources: string[] }) => [...run.packages.filter((name) => name === '@sinclair/typebox'), ...run.sources.filter((file) => /^src\/(engine\.ts|(search|find|spatial|store)\/)/.test(file))];
    // the probe itself: it sees them where they are loaded
    expect(engineParts(loadedBy('snapshot', '--help')).length).toBeGreaterThan(0);
    for (const args of [['venues', 'upsert', '--help'], ['venues', 'remove', '--help']]) {
      const run = loadedBy(...args);
      expect(run.status, `${args.join(' ')}: ${run.stderr}`).toBe(0);
      expect(run.sources, args.join(' ')).toContain('src/cli/venues-command.ts');
      expect(engineParts(run), args.join(' ')).toEqual([]);
    }
  });

  it('--help, no command and a misspelt command still name every command (README, "The two commands")', () => {
    const listed = (text: string): string[] => [...text.matchAll(/^ {2}(\w+)\b/gm)].map((m) => m[1]!).filter((name) => !['V', 'h'].includes(name));
    const help = loadedBy('--help');
    expect(listed(help.stdout.slice(help.stdout.indexOf('Commands:')))).toEqual(['import', 'serve', 'accounts', 'keys', 'snapshot', 'venues', 'help']);
    const misspelt = spawnSync(process.execPath, [CLI_MAIN, 'snapshto'], { encoding: 'utf8' });
    expect(misspelt.status).toBe(1);
    expect(misspelt.stderr).toBe("error: unknown command 'snapshto'\n(Did you mean snapshot?)\n");
  });
});
