#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { isVenueSearchError } from '../errors.js';
import { unknownOptionsFirst } from './unknown-options-first.js';

/**
 * The package's version, from its package.json: three folders up from dist/src/cli when
 * built (installed), two up from src/cli in a checkout.
 */
function packageVersion(): string {
  for (const up of ['../../../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(up, import.meta.url), 'utf8')) as { name?: unknown; version?: unknown };
      if (pkg.name === 'venue-search-engine' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // not there: the other layout
    }
  }
  return 'unknown';
}

/** The `venue-search` command line. Each command family registers itself here. */
const program = new Command('venue-search')
  .version(packageVersion(), '-V, --version', 'print the version of venue-search-engine')
  .description('venue search: import venue data, snapshot it, and serve the /v1 HTTP interface over it')
  .addHelpText(
    'after',
    [
      '',
      'Searches have no command of their own: serve the data, then POST /v1/search/ or GET /v1/find',
      '(README, "The two commands"), or call the engine in-process from Node: createEngine,',
      'engine.search and engine.find (README, "Using the engine").',
    ].join('\n'),
  );

/**
 * The command families, in the order `--help` lists them: the top-level commands each
 * registers, and how to load it. A family's modules load only when it is registered:
 * `serve` never loads the importers, `import osm` never loads the HTTP service (fastify),
 * and `--version` loads none (0.63 s -> 0.14 s, medians on the 2-core development machine).
 */
const COMMAND_FAMILIES: readonly { readonly commands: readonly string[]; load(): Promise<(program: Command) => void | Promise<void>> }[] = [
  { commands: ['import'], load: async () => (await import('./import-command.js')).registerImportCommands },
  { commands: ['serve', 'accounts', 'keys'], load: async () => (await import('./service-peers.js')).registerServiceCommandsIfAvailable },
  { commands: ['snapshot'], load: async () => (await import('./snapshot-command.js')).registerSnapshotCommand },
  { commands: ['venues'], load: async () => (await import('./venues-command.js')).registerVenuesCommand },
];

/**
 * `help import osm` as `import osm --help`: commander's help command takes one command name
 * and would show `import`'s help. One name, or any option, is left to commander.
 */
function helpArgv(argv: readonly string[]): string[] {
  const [runtime, script, first, ...names] = argv;
  if (first !== 'help' || names.length < 2 || names.some((name) => name.startsWith('-'))) return [...argv];
  return [runtime!, script!, ...names, '--help'];
}

/**
 * The families `args` (the words after the script) needs: none for the version alone; only
 * the one its first word names (after `help`); every family otherwise (`--help`, no command,
 * an unknown or misspelt command, which commander answers with the names of all).
 */
function familiesFor(args: readonly string[]): typeof COMMAND_FAMILIES {
  if (args.length === 1 && (args[0] === '-V' || args[0] === '--version')) return [];
  const words = args[0] === 'help' ? args.slice(1) : args;
  const named = COMMAND_FAMILIES.find((family) => words[0] !== undefined && family.commands.includes(words[0]));
  return named === undefined ? COMMAND_FAMILIES : [named];
}

const argv = helpArgv(process.argv);
// loaded together (as one static import graph would be), registered in the listed order
const registers = await Promise.all(familiesFor(argv.slice(2)).map((family) => family.load()));
for (const register of registers) await register(program);
unknownOptionsFirst(program);

try {
  await program.parseAsync(argv);
} catch (err) {
  // Bad input is the user's to fix: say what and where, without a stack trace.
  if (!isVenueSearchError(err)) throw err;
  process.stderr.write(`venue-search: ${err.message}\n`);
  process.exitCode = 1;
}
