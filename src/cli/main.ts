#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { isVenueSearchError } from '../errors.js';
import { registerImportCommands } from './import-command.js';
import { registerServiceCommandsIfAvailable } from './service-peers.js';
import { registerSnapshotCommand } from './snapshot-command.js';
import { registerVenuesCommand } from './venues-command.js';
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
registerImportCommands(program);
await registerServiceCommandsIfAvailable(program);
registerSnapshotCommand(program);
registerVenuesCommand(program);
unknownOptionsFirst(program);
/**
 * `help import osm` as `import osm --help`: commander's help command takes one command name
 * and would show `import`'s help. One name, or any option, is left to commander.
 */
function helpArgv(argv: readonly string[]): string[] {
  const [runtime, script, first, ...names] = argv;
  if (first !== 'help' || names.length < 2 || names.some((name) => name.startsWith('-'))) return [...argv];
  return [runtime!, script!, ...names, '--help'];
}

try {
  await program.parseAsync(helpArgv(process.argv));
} catch (err) {
  // Bad input is the user's to fix: say what and where, without a stack trace.
  if (!isVenueSearchError(err)) throw err;
  process.stderr.write(`venue-search: ${err.message}\n`);
  process.exitCode = 1;
}
