/**
 * The command line loads only the command family it runs (src/cli/main.ts, COMMAND_FAMILIES):
 * `--version` loads no family, `import` never loads the HTTP service's packages, `serve` loads
 * them once it starts to serve (not for its help).
 * The command is a bundle (dist/bin, scripts/build-bin.mjs): each family a chunk of its own,
 * loaded by `import()`. The oracles are Node's and the bundler's own records, not ours: the
 * files a process loaded (test/support/load-probe.ts: a module resolution hook and
 * require.cache; fastify, better-sqlite3 and commander are CommonJS packages outside the
 * bundle), each read through its source map when it has one (`sources`: the TypeScript files
 * and packages esbuild put in it), so a chunk holding TypeBox or the engine names them.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_MAIN } from '../support/cli.js';
import { loadProbe, packageOf } from '../support/load-probe.js';

const dir = mkdtempSync(join(tmpdir(), 'command-families-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const probe = loadProbe(dir);

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * What `venue-search ...args` loaded: the packages (CommonJS files, and those whose code was
 * in an ES module file it loaded, by that file's source map), the files of our sources
 * (src/..., from the source maps), and what it printed.
 */
function loadedBy(args: readonly string[], env: Readonly<Record<string, string>> = {}): { packages: string[]; sources: string[]; stdout: string; stderr: string; status: number | null } {
  const run = probe.run([CLI_MAIN, ...args], env);
  const packages = new Set<string>();
  const sources = new Set<string>();
  for (const file of run.files) {
    const map = `${file}.map`;
    const parts = existsSync(map) ? (JSON.parse(readFileSync(map, 'utf8')) as { sources: string[] }).sources.map((s) => resolve(dirname(file), s)) : [file];
    for (const part of parts) {
      const pkg = packageOf(part);
      if (pkg !== undefined) packages.add(pkg);
      else sources.add(relative(ROOT, part).replace(/\\/g, '/'));
    }
  }
  return { packages: [...packages].sort(), sources: [...sources].sort(), stdout: run.stdout, stderr: run.stderr, status: run.status };
}

const SERVICE_PACKAGES = ['fastify', 'better-sqlite3'];

describe('the command line loads the family it runs, no other', () => {
  it('--version loads only commander, and prints the package version', () => {
    const version = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
    const run = loadedBy(['--version']);
    expect(run.stdout.trim()).toBe(version);
    expect(run.packages).toEqual(['commander']);
    // the probe reads the bundle's maps: the entry's own sources are there
    expect(run.sources).toContain('src/cli/main.ts');
  });

  it('no command loads the HTTP service for its help; serve loads it once it starts to serve (the probe sees it)', () => {
    const helps = [['import', 'osm', '--help'], ['snapshot', '--help'], ['venues', 'upsert', '--help'], ['help', 'import', 'fhrs'], ['serve', '--help'], ['accounts', 'create', '--help'], ['help', 'keys']];
    for (const args of helps) {
      const run = loadedBy(args);
      expect(run.status, args.join(' ')).toBe(0);
      expect(run.stdout, args.join(' ')).toMatch(/^Usage: venue-search /);
      for (const name of SERVICE_PACKAGES) expect(run.packages, `${args.join(' ')}: ${name}`).not.toContain(name);
    }
    // A serve that loads its data and opens its accounts, then stops at a clock file that is
    // not there (the last check before the app is built): fastify was loaded while the data
    // was read (service-commands.ts), and better-sqlite3 opened the accounts.
    const clockFile = join(dir, 'no-such-clock');
    const serve = loadedBy(['serve', '--data', join(ROOT, 'fixtures/venues.ndjson'), '--port', '0', '--db', ':memory:', '--workers', '1'], { VENUE_SEARCH_CLOCK_FILE: clockFile });
    expect(serve.status, serve.stderr).toBe(1);
    expect(serve.stderr).toContain(clockFile);
    for (const name of SERVICE_PACKAGES) expect(serve.packages, name).toContain(name);
  });

  it("venues loads neither TypeBox nor the engine: an operator's upsert starts as a small HTTP client", () => {
    const engineParts = (run: { packages: string[]; sources: string[] }) => [...run.packages.filter((name) => name === '@sinclair/typebox'), ...run.sources.filter((file) => /^src\/(engine\.ts|(search|find|spatial|store)\/)/.test(file))];
    // the probe itself: it sees them where they are loaded
    expect(engineParts(loadedBy(['snapshot', '--help'])).length).toBeGreaterThan(0);
    for (const args of [['venues', 'upsert', '--help'], ['venues', 'remove', '--help']]) {
      const run = loadedBy(args);
      expect(run.status, `${args.join(' ')}: ${run.stderr}`).toBe(0);
      expect(run.sources, args.join(' ')).toContain('src/cli/venues-command.ts');
      expect(engineParts(run), args.join(' ')).toEqual([]);
    }
  });

  it('--help, no command and a misspelt command still name every command (README, "The two commands")', () => {
    const listed = (text: string): string[] => [...text.matchAll(/^ {2}(\w+)\b/gm)].map((m) => m[1]!).filter((name) => !['V', 'h'].includes(name));
    const help = loadedBy(['--help']);
    expect(listed(help.stdout.slice(help.stdout.indexOf('Commands:')))).toEqual(['import', 'serve', 'accounts', 'keys', 'snapshot', 'venues', 'help']);
    const misspelt = spawnSync(process.execPath, [CLI_MAIN, 'snapshto'], { encoding: 'utf8' });
    expect(misspelt.status).toBe(1);
    expect(misspelt.stderr).toBe("error: unknown command 'snapshto'\n(Did you mean snapshot?)\n");
  });
});
