/**
 * The command line loads only the command family it runs (src/cli/main.ts, COMMAND_FAMILIES):
 * `--version` loads no family, `import` never loads the HTTP service's packages, `serve` does.
 * The oracle is Node's own record of the CommonJS packages a process loaded (require.cache,
 * read at exit by a preloaded probe): fastify, better-sqlite3 and commander are CommonJS, so
 * their loading shows there even when an ES module imports them. The ES modules a process
 * loaded (TypeBox, the engine's own files) are recorded by a module resolution hook.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
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

/** The CommonJS packages `venue-search ...args` loaded, and what it printed. */
function packagesLoadedBy(...args: string[]): { packages: string[]; stdout: string; status: number | null } {
  const out = join(dir, `${args.join('-').replace(/\W+/g, '_')}.json`);
  const run = spawnSync(process.execPath, ['--require', PROBE, CLI_MAIN, ...args], { encoding: 'utf8', env: { ...process.env, PROBE_OUT: out } });
  return { packages: JSON.parse(readFileSync(out, 'utf8')) as string[], stdout: run.stdout, status: run.status };
}

const SERVICE_PACKAGES = ['fastify', 'better-sqlite3'];

describe('the command line loads the family it runs, no other', () => {
  it('--version loads only commander, and prints the package version', () => {
    const version = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
    const run = packagesLoadedBy('--version');
    expect(run.stdout.trim()).toBe(version);
    expect(run.packages).toEqual(['commander']);
  });

  it('import, snapshot and venues do not load the HTTP service; serve, accounts and keys do (the probe sees them)', () => {
    for (const args of [['import', 'osm', '--help'], ['snapshot', '--help'], ['venues', 'upsert', '--help'], ['help', 'import', 'fhrs']]) {
      const run = packagesLoadedBy(...args);
      expect(run.status, args.join(' ')).toBe(0);
      expect(run.stdout, args.join(' ')).toMatch(/^Usage: venue-search /);
      for (const name of SERVICE_PACKAGES) expect(run.packages, `${args.join(' ')}: ${name}`).not.toContain(name);
    }
    for (const args of [['serve', '--help'], ['accounts', 'create', '--help'], ['help', 'keys']]) {
      const run = packagesLoadedBy(...args);
      expect(run.status, args.join(' ')).toBe(0);
      // better-sqlite3 itself loads only when an accounts database is opened
      expect(run.packages, args.join(' ')).toContain('fastify');
    }
  });

  it("venues loads neither TypeBox nor the engine: an operator's upsert starts as a small HTTP client (the hook sees every ES module)", () => {
    const modulesLoadedBy = (...args: string[]): string[] => {
      const out = join(dir, `esm-${args.join('-').replace(/\W+/g, '_')}.txt`);
      writeFileSync(out, '');
      const run = spawnSync(process.execPath, ['--import', ESM_PROBE, CLI_MAIN, ...args], { encoding: 'utf8', env: { ...process.env, ESM_OUT: out } });
      expect(run.status, `${args.join(' ')}: ${run.stderr}`).toBe(0);
      return readFileSync(out, 'utf8').split('\n').filter((url) => url !== '');
    };
    const engineFiles = (urls: string[]) => urls.filter((url) => /@sinclair\/typebox|\/src\/engine\.js$|\/src\/(search|find|spatial|store)\//.test(url));
    // the probe itself: the same hook sees them where they are loaded
    expect(engineFiles(modulesLoadedBy('snapshot', '--help')).length).toBeGreaterThan(0);
    for (const args of [['venues', 'upsert', '--help'], ['venues', 'remove', '--help']]) {
      const urls = modulesLoadedBy(...args);
      expect(urls.some((url) => url.endsWith('/cli/venues-command.js')), args.join(' ')).toBe(true);
      expect(engineFiles(urls), args.join(' ')).toEqual([]);
    }
  });

  it('--help, no command and a misspelt command still name every command (README, "The two commands")', () => {
    const listed = (text: string): string[] => [...text.matchAll(/^ {2}(\w+)\b/gm)].map((m) => m[1]!).filter((name) => !['V', 'h'].includes(name));
    const help = packagesLoadedBy('--help');
    expect(listed(help.stdout.slice(help.stdout.indexOf('Commands:')))).toEqual(['import', 'serve', 'accounts', 'keys', 'snapshot', 'venues', 'help']);
    const misspelt = spawnSync(process.execPath, [CLI_MAIN, 'snapshto'], { encoding: 'utf8' });
    expect(misspelt.status).toBe(1);
    expect(misspelt.stderr).toBe("error: unknown command 'snapshto'\n(Did you mean snapshot?)\n");
  });
});
