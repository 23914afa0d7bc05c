/**
 * The service commands of the `venue-search` command line:
 *   serve --data <venues.ndjson> [--port 8080] [--host 127.0.0.1] [--db accounts.sqlite] [--dev]
 *         [--admin-token-file F [--live-dir D] [--compact-after N]]
 *   accounts create --plan <Plan> [--db accounts.sqlite]
 *   accounts topup <accountId> <amountGBP> [--db accounts.sqlite]
 *   accounts origins <accountId> [origin...] [--clear] [--db accounts.sqlite]
 *   keys rotate <accountId> [--db accounts.sqlite] [--only secret|public] [--grace-hours 24]
 * Operator commands print one JSON object on stdout; errors go to stderr with exit code 1.
 */
import { Command, InvalidArgumentError, Option } from 'commander';
import { isVenueSearchError } from '../errors.js';
import { openAccount, rotateAccountKeys } from '../http/accounts.js';
import { buildApp } from '../http/app.js';
import { normalizeOrigin } from '../http/origins.js';
import { MICROS_PER_GBP, NEW_ACCOUNT_CREDIT_MICROS, PLAN_NAMES, parseGbpToMicros, type PlanName } from '../http/plans.js';
import { AccountsDatabaseError, SqliteAccountsStore } from '../http/sqlite-accounts-store.js';
import { readFileSync } from 'node:fs';
import { LiveVenues } from '../changelog/live-venues.js';
import { loadEngineFile } from './load-engine.js';

const DEFAULT_DB = 'accounts.sqlite';
/** The fixed id of the development account `serve --dev` creates or reuses. */
export const DEV_ACCOUNT_ID = 'acct_development';

function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

function fail(message: string): never {
  process.stderr.write(`venue-search: ${message}\n`);
  process.exit(1);
}

function parsePort(text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || !Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new InvalidArgumentError(`must be an integer 0..65535; got ${JSON.stringify(text)}`);
  }
  return port;
}

function parseGraceHours(text: string): number {
  const hours = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || !Number.isFinite(hours) || hours > 24 * 90) {
    throw new InvalidArgumentError(`must be a number of hours 0..2160; got ${JSON.stringify(text)}`);
  }
  return hours;
}

/** Opens the accounts database or stops with one line naming the file (no stack trace, exit 1). */
function openStore(dbPath: string): SqliteAccountsStore {
  try {
    return new SqliteAccountsStore(dbPath);
  } catch (err) {
    if (err instanceof AccountsDatabaseError) fail(err.message);
    throw err;
  }
}

async function withStore<T>(dbPath: string, run: (store: SqliteAccountsStore) => Promise<T>): Promise<T> {
  const store = openStore(dbPath);
  try {
    return await run(store);
  } finally {
    await store.close();
  }
}

interface ServeOptions {
  data: string;
  port: number;
  host: string;
  db: string;
  dev?: boolean;
  widgetTileUrl?: string;
  widgetTileAttribution?: string;
  adminTokenFile?: string;
  liveDir?: string;
  compactAfter: number;
}

/** Shortest operator token accepted (characters). */
const MIN_ADMIN_TOKEN_LENGTH = 16;

function parseCount(text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(n)) throw new InvalidArgumentError(`must be a whole number; got ${JSON.stringify(text)}`);
  return n;
}

/** The live engine of `serve --admin-token-file`: base plus replayed change log (docs/updates.md). */
async function openLive(options: ServeOptions): Promise<{ live: LiveVenues; token: string; dir: string }> {
  let token: string;
  try {
    token = readFileSync(options.adminTokenFile!, 'utf8').trim();
  } catch (err) {
    fail(`cannot read --admin-token-file ${options.adminTokenFile}: ${(err as Error).message}`);
  }
  if (token.length < MIN_ADMIN_TOKEN_LENGTH || /\s/.test(token)) {
    fail(`the operator token in ${options.adminTokenFile} must be one word of at least ${MIN_ADMIN_TOKEN_LENGTH} characters`);
  }
  const dir = options.liveDir ?? `${options.data}.live`;
  try {
    const live = await LiveVenues.open({
      dataPath: options.data,
      dir,
      compactAfter: options.compactAfter,
      load: async (path) => (await loadEngineFile(path, fail)).engine,
      onCompaction: (r) =>
        process.stderr.write(`venue-search: compacted ${r.venues} venues (log up to ${r.upToSeq}) in ${Math.round(r.totalMs)} ms, swap ${r.swapMs.toFixed(1)} ms\n`),
    });
    live.engine.warm();
    return { live, token, dir };
  } catch (err) {
    if (isVenueSearchError(err)) fail(`cannot load ${options.data} with the changes in ${dir}: ${err.message}`);
    throw err;
  }
}

async function loadEngine(dataPath: string) {
  try {
    const { engine } = await loadEngineFile(dataPath, fail);
    return engine.warm();
  } catch (err) {
    if (isVenueSearchError(err)) fail(`cannot load ${dataPath}: ${err.message}`);
    throw err;
  }
}

/** Creates the development account, or reuses it with fresh keys and its credit topped back up to 10 GBP. */
async function developmentKeys(store: SqliteAccountsStore): Promise<{ accountId: string; secretKey: string; publicKey: string }> {
  const existing = await store.getAccount(DEV_ACCOUNT_ID);
  if (existing === undefined) {
    const opened = await openAccount(store, 'Enterprise', { accountId: DEV_ACCOUNT_ID });
    return { accountId: opened.accountId, secretKey: opened.secretKey, publicKey: opened.publicKey };
  }
  if (existing.balanceMicros < NEW_ACCOUNT_CREDIT_MICROS) {
    await store.topUp(DEV_ACCOUNT_ID, NEW_ACCOUNT_CREDIT_MICROS - existing.balanceMicros, Date.now());
  }
  // keys are stored hashed and cannot be shown again, so the dev keys are re-issued each start
  const rotated = await rotateAccountKeys(store, DEV_ACCOUNT_ID, { graceMs: 0 });
  return { accountId: DEV_ACCOUNT_ID, secretKey: rotated.secretKey!, publicKey: rotated.publicKey! };
}

async function serve(options: ServeOptions): Promise<void> {
  const live = options.adminTokenFile === undefined ? null : await openLive(options);
  const engine = live?.live.engine ?? (await loadEngine(options.data));
  const store = openStore(options.db);
  const widget = {
    ...(options.widgetTileUrl === undefined ? {} : { tileUrl: options.widgetTileUrl }),
    ...(options.widgetTileAttribution === undefined ? {} : { tileAttribution: options.widgetTileAttribution }),
  };
  const admin = live === null ? {} : { admin: { live: live.live, token: live.token } };
  const app = await buildApp({ engine, accounts: store, logger: { level: 'info' }, widget, ...admin });
  const close = async (): Promise<void> => {
    await app.close();
    await live?.live.close();
    await store.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void close());
  process.once('SIGTERM', () => void close());
  try {
    await app.listen({ port: options.port, host: options.host });
  } catch (err) {
    await store.close();
    fail(`cannot listen on ${options.host}:${options.port}: ${(err as Error).message}`);
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  const base = `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}`;
  const lines = [`venue-search: serving ${options.data} on ${base}/v1/ (accounts: ${options.db})`];
  if (live !== null) lines.push(`Admin routes on ${base}/admin/ (live data in ${live.dir}; ${engine.pendingChanges} pending changes replayed)`);
  if (options.dev === true) {
    const dev = await developmentKeys(store);
    lines.push(
      'Development account (Enterprise plan, 10 GBP credit; keys re-issued at every start):',
      `  account id  ${dev.accountId}`,
      `  secret key  ${dev.secretKey}`,
      `  public key  ${dev.publicKey}`,
      `Try: curl -H "API-Key: ${dev.secretKey}" "${base}/v1/find?q=coffee"`,
      `Widget: ${base}/v1/widget/?key=${dev.publicKey}`,
    );
  }
  process.stderr.write(`${lines.join('\n')}\n`);
}

export function registerServiceCommands(program: Command): void {
  program
    .command('serve')
    .description('serve the /v1 HTTP interface over a venues file')
    .requiredOption('--data <file>', 'venues file (NDJSON, JSON array or GeoJSON) or a snapshot written by `venue-search snapshot`')
    .option('--port <port>', 'TCP port', parsePort, 8080)
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--db <file>', 'accounts database (SQLite)', DEFAULT_DB)
    .option('--dev', 'create or reuse a development account and print its keys')
    .option('--widget-tile-url <template>', 'base-map tiles for the widget, e.g. https://tiles.example.org/{z}/{x}/{y}.png (default: vector map only)')
    .option('--widget-tile-attribution <text>', 'credit line shown under the widget map when tiles are used')
    .option('--admin-token-file <file>', 'enable PUT/DELETE /admin/venues (live data), authenticated by the token in this file')
    .option('--live-dir <dir>', 'change log and compacted snapshots of live data (default: <data>.live)')
    .option('--compact-after <n>', 'pending changes that start a compaction in a worker thread (0: never)', parseCount, 50_000)
    .action(async (options: ServeOptions) => serve(options));

  const accounts = program.command('accounts').description('operator actions on accounts');
  accounts
    .command('create')
    .description('open an account with 10 GBP credit; prints its id, secret key and public key (shown once)')
    .addOption(new Option('--plan <plan>', 'rate-limit plan').choices(PLAN_NAMES).makeOptionMandatory())
    .option('--db <file>', 'accounts database (SQLite)', DEFAULT_DB)
    .action(async (options: { plan: PlanName; db: string }) => {
      const opened = await withStore(options.db, (store) => openAccount(store, options.plan));
      printJson(opened);
    });
  accounts
    .command('topup')
    .description('credit an account with an amount in GBP (e.g. 25 or 12.50)')
    .argument('<accountId>')
    .argument('<amountGBP>')
    .option('--db <file>', 'accounts database (SQLite)', DEFAULT_DB)
    .action(async (accountId: string, amountText: string, options: { db: string }) => {
      let amountMicros: number;
      try {
        amountMicros = parseGbpToMicros(amountText);
      } catch (err) {
        fail((err as Error).message);
      }
      const balanceMicros = await withStore(options.db, async (store) => {
        if ((await store.getAccount(accountId)) === undefined) fail(`no account ${JSON.stringify(accountId)} in ${options.db}`);
        return store.topUp(accountId, amountMicros, Date.now());
      });
      printJson({ accountId, toppedUpMicros: amountMicros, balanceMicros, balanceGBP: (balanceMicros / MICROS_PER_GBP).toFixed(6) });
    });

  accounts
    .command('origins')
    .description("set the web origins allowed to use the account's public key (widget and API from a browser); no origins: print the list")
    .argument('<accountId>')
    .argument('[origins...]', 'origins like https://www.example.com (scheme, host, optional port)')
    .option('--clear', 'remove every origin: the public key works from any origin again')
    .option('--db <file>', 'accounts database (SQLite)', DEFAULT_DB)
    .action(async (accountId: string, originTexts: string[], options: { db: string; clear?: boolean }) => {
      let origins: string[];
      try {
        origins = [...new Set(originTexts.map(normalizeOrigin))];
      } catch (err) {
        fail((err as Error).message);
      }
      if (options.clear === true && origins.length > 0) fail('give either origins or --clear, not both');
      const allowed = await withStore(options.db, async (store) => {
        if ((await store.getAccount(accountId)) === undefined) fail(`no account ${JSON.stringify(accountId)} in ${options.db}`);
        if (options.clear === true || origins.length > 0) await store.setAllowedOrigins(accountId, origins);
        return store.allowedOrigins(accountId);
      });
      printJson({ accountId, allowedOrigins: allowed, anyOrigin: allowed.length === 0 });
    });

  program
    .command('keys')
    .description('API key actions')
    .command('rotate')
    .description('issue new keys; the old ones keep working for the grace period')
    .argument('<accountId>')
    .option('--db <file>', 'accounts database (SQLite)', DEFAULT_DB)
    .addOption(new Option('--only <kind>', 'rotate only this key').choices(['secret', 'public']))
    .option('--grace-hours <hours>', 'how long the old keys keep working', parseGraceHours, 24)
    .action(async (accountId: string, options: { db: string; only?: 'secret' | 'public'; graceHours: number }) => {
      const rotated = await withStore(options.db, async (store) => {
        if ((await store.getAccount(accountId)) === undefined) fail(`no account ${JSON.stringify(accountId)} in ${options.db}`);
        return rotateAccountKeys(store, accountId, {
          ...(options.only === undefined ? {} : { kinds: [options.only] }),
          graceMs: Math.round(options.graceHours * 3_600_000),
        });
      });
      printJson({ ...rotated, previousKeysExpireAt: new Date(rotated.previousKeysExpireAtMs).toISOString() });
    });
}
