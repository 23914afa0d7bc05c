import { createRequire } from 'node:module';
import type { Command } from 'commander';

/**
 * The HTTP service's packages are optional peer dependencies (docs/packaging.md): an
 * engine-only install has neither fastify nor better-sqlite3. The service commands are
 * therefore loaded on demand; when a peer is missing, `serve`, `accounts` and `keys` still
 * appear in `--help` and say exactly what to install.
 */
export const SERVICE_PEERS = [
  'fastify',
  '@fastify/swagger',
  '@fastify/type-provider-typebox',
  'ajv',
  'ajv-formats',
  'better-sqlite3',
] as const;

const SERVICE_COMMANDS = [
  ['serve', 'serve the /v1 HTTP interface'],
  ['accounts', 'operator actions on accounts'],
  ['keys', 'operator actions on API keys'],
] as const;

/** The package a failed dynamic import could not find, if that was the failure. */
export function missingPackageOf(err: unknown): string | undefined {
  if (!(err instanceof Error) || (err as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') return undefined;
  const match = /Cannot find (?:package|module) '([^']+)'/.exec(err.message);
  const name = match?.[1];
  return name !== undefined && (SERVICE_PEERS as readonly string[]).some((peer) => name === peer || name.startsWith(`${peer}/`)) ? name : undefined;
}

export function installHint(missing: string): string {
  return (
    `the HTTP service needs the optional peer dependencies, and "${missing}" is not installed.\n` +
    `Install them beside venue-search-engine:\n  npm install ${SERVICE_PEERS.join(' ')}`
  );
}

/**
 * The peers the HTTP app's modules import (src/http/app.ts, src/http/validation.ts), which
 * `serve` loads only once it has started reading its data (service-commands.ts): looked up
 * here, when the commands are registered, so that a missing one still gives the stand-ins.
 * Not better-sqlite3: a service on PostgreSQL runs without it, and the SQLite accounts store
 * names it when an SQLite file is asked for.
 */
export const HTTP_APP_PEERS = ['fastify', '@fastify/swagger', 'ajv', 'ajv-formats'] as const;

/** The first of HTTP_APP_PEERS that cannot be found from this module, or undefined. */
function missingHttpAppPeer(): string | undefined {
  const require = createRequire(import.meta.url);
  return HTTP_APP_PEERS.find((name) => {
    try {
      require.resolve(name);
      return false;
    } catch {
      return true;
    }
  });
}

/**
 * Registers the service commands: the real ones when their peers are there, else stand-ins
 * that print the install line and exit 1.
 */
export async function registerServiceCommandsIfAvailable(program: Command): Promise<void> {
  let missing = missingHttpAppPeer();
  if (missing === undefined) {
    try {
      const { registerServiceCommands } = await import('./service-commands.js');
      registerServiceCommands(program);
      return;
    } catch (err) {
      missing = missingPackageOf(err);
      if (missing === undefined) throw err;
    }
  }
  const absent = missing;
  for (const [name, description] of SERVICE_COMMANDS) {
    program
      .command(name)
      .description(`${description} (needs the service packages: npm install ${SERVICE_PEERS.join(' ')})`)
      .allowUnknownOption()
      .allowExcessArguments()
      .action(() => {
        process.stderr.write(`venue-search: ${installHint(absent)}\n`);
        process.exitCode = 1;
      });
  }
}
