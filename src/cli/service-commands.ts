/**
 * The service commands of the `venue-search` command line:
 *   serve --data <venues.ndjson> [--port 8080] [--host 127.0.0.1] [--db accounts.sqlite | postgres://...] [--workers N] [--engine-threads N] [--dev]
 *         [--admin-token-file F [--live-dir D] [--compact-after N]]
 *   accounts create --plan <Plan> [--db accounts.sqlite]
 *   accounts topup <accountId> <amountGBP> [--db accounts.sqlite]
 *   accounts origins <accountId> [origin...] [--clear] [--db accounts.sqlite]
 *   keys rotate <accountId> [--db accounts.sqlite] [--only secret|public] [--grace-hours 24]
 * Operator commands print one JSON object on stdout; errors go to stderr with exit code 1.
 */
import { accessSync, constants, existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, dirname, extname, join } from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { fileProblem, isFileError, writeProblem } from '../data/file-problem.js';
import { isVenueSearchError } from '../errors.js';
import { DEFAULT_ROTATION_GRACE_MS, openAccount, rotateAccountKeys } from '../accounts/accounts.js';
import type { buildApp as BuildApp } from '../http/app.js';
import { chargedAnswersNotSent } from '../http/charged-delivery.js';
import { stdoutLogDrained } from '../http/stdout-log.js';
import { CLOCK_FILE_ENV, serviceClock, type ServiceClock } from './service-clock.js';
import { hashApiKey } from '../accounts/keys.js';
import { normalizeOrigin } from '../accounts/origins.js';
import { MICROS_PER_GBP, PLAN_NAMES, parseGbpToMicros, type PlanName } from '../accounts/plans.js';
import { AccountsDatabaseError, type AccountsStore } from '../accounts/accounts-store.js';
import { databaseUrlProblem, isPostgresUrl, redactUrl, urlScheme } from '../accounts/database-url.js';
import { MissingDatabaseClientError, sqliteDatabaseClass } from '../accounts/database-clients.js';
import { sqliteNativeModuleError } from '../accounts/sqlite-native.js';
import { pgModule } from '../accounts/pg-client.js';
import type { WidgetOptions } from '../widget/widget-page.js';
import { installHint, missingPackageOf } from './service-peers.js';
import { tileTemplateProblem } from '../widget/tile-template.js';
import { isDataOrigin } from '../changelog/data-origin.js';
import { LiveVenues } from '../changelog/live-venues.js';
import { readSnapshot, SNAPSHOT_FORMAT_MISMATCH } from '../snapshot/read-snapshot.js';
import { operatorTokenFileWarning, operatorTokenProblem } from './operator-token.js';
import { unignoredInGitWorkTree } from './git-ignored.js';
import { dataFileProblem, isSnapshotFile, loadEngineFile, loadSharedSnapshot, secondsSince, type LoadReport } from './load-engine.js';
import { EnginePool } from '../service/engine-pool.js';
import { dataFileToLoad, holdDataFile, type DataFileToLoad } from './held-data-file.js';
import { isClusterWorker, isFirstClusterWorker, reportListening, runPrimary, WorkerStartError } from './serve-cluster.js';
import { listenPrecheck, listenProblem } from './listen-problem.js';

const DEFAULT_DB = 'accounts.sqlite';
/** `--db`'s help: no password in the URL (a command line is readable by every local user; docs/deploy.md). */
const DB_OPTION_HELP = 'accounts database: an SQLite file, or postgres://user@host:port/database (password: PGPASSWORD)';
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

/**
 * The operator commands' clock: the service's (src/cli/service-clock.ts: a clock file when
 * VENUE_SEARCH_CLOCK_FILE names one, for tests), so that grace periods and ledger times agree
 * with a serve reading the same clock. A bad clock file stops the command with its message.
 */
function operatorNow(): number {
  try {
    return serviceClock().clock();
  } catch (err) {
    fail((err as Error).message);
  }
}

/**
 * The refusal of a --db that is a URL of another kind (mysql://, https://...), which would
 * otherwise be taken for an SQLite file's name (audit 73d F6: `mysql://x` was "its folder
 * mysql:/ does not exist" in `serve`, "no accounts database at mysql://x" in `accounts
 * topup`); null for an SQLite path or a postgres:// URL. Checked first by every command.
 */
function unsupportedDbProblem(db: string): string | null {
  if (isPostgresUrl(db) || urlScheme(db) === null) return null;
  return `--db ${redactUrl(db)} is not a database this service can use: give an SQLite file, or a postgres:// URL`;
}

/**
 * What makes --db unusable that can be told before the data is loaded (a minute at 1M venues),
 * without making or touching the database (a start that fails on its data must leave it
 * untouched): its client package not installed, or an SQLite file's folder missing, a file,
 * or not writable (a database still to be made or an existing one). Null when none; the
 * open itself finds the rest.
 */
function accountsDbPrecheck(db: string): string | null {
  const unsupported = unsupportedDbProblem(db);
  if (unsupported !== null) return unsupported;
  try {
    if (isPostgresUrl(db)) {
      pgModule();
      return null;
    }
    // its native module loads at the first database opened: one in memory, now, rather than
    // the accounts file's once the venue data has loaded (audit 72b: minutes on a large file)
    new (sqliteDatabaseClass())(':memory:').close();
  } catch (err) {
    if (err instanceof MissingDatabaseClientError) return err.message;
    const native = sqliteNativeModuleError(err);
    if (native !== undefined) return `cannot open the accounts database ${db}: ${native.message}`;
    throw err;
  }
  if (db === ':memory:') return null;
  const folder = dirname(db);
  const folderEntry = statSync(folder, { throwIfNoEntry: false });
  if (folderEntry === undefined) return `--db: cannot make the accounts database ${db}: its folder ${folder} does not exist`;
  if (!folderEntry.isDirectory()) return `--db: cannot open the accounts database ${db}: ${folder} is a file, not a folder`;
  const exists = existsSync(db);
  try {
    // an existing database needs its folder writable too: SQLite makes its journal, WAL and
    // shared-memory files there, and the rate counters' file (`<db>-rates`) is made beside it
    accessSync(folder, constants.W_OK);
  } catch (err) {
    if (!exists) return `--db: cannot make the accounts database ${db} in ${folder}: ${writeProblem(err)}`;
    return `--db: cannot use the accounts database ${db}: ${writeProblem(err)} in its folder ${folder} (SQLite writes its journal and WAL files beside the database)`;
  }
  return null;
}

/**
 * Opens the accounts database: a PostgreSQL server for a `postgres://` URL (migrations applied
 * at open), else an SQLite file. Stops with one line naming it (no stack trace, exit 1).
 */
async function openStore(db: string): Promise<AccountsStore> {
  // every command's --db is checked alike, in serve's words (audit 73d F6: `accounts create`
  // said SQLite's "unable to open database file" where serve named the folder and the cause)
  const problem = accountsDbPrecheck(db);
  if (problem !== null) fail(problem);
  const unparsable = isPostgresUrl(db) ? databaseUrlProblem(db) : null;
  if (unparsable !== null) fail(`--db ${unparsable}`);
  try {
    // each client is loaded only when used: pg and better-sqlite3 are optional for the package
    if (isPostgresUrl(db)) return await (await import('../accounts/postgres-accounts-store.js')).PostgresAccountsStore.open(db);
    return new (await import('../accounts/sqlite-accounts-store.js')).SqliteAccountsStore(db);
  } catch (err) {
    // a missing client (better-sqlite3, pg) is named with its install line
    if (err instanceof AccountsDatabaseError) fail(`--db: ${err.message}`);
    if (err instanceof MissingDatabaseClientError) fail(err.message);
    throw err;
  }
}

/** The database for messages: a URL without its password. */
function describeDb(db: string): string {
  return isPostgresUrl(db) ? redactUrl(db) : db;
}

async function withStore<T>(dbPath: string, run: (store: AccountsStore) => Promise<T>): Promise<T> {
  const store = await openStore(dbPath);
  try {
    return await run(store);
  } finally {
    await store.close();
  }
}

/**
 * {@link withStore} for a command on an existing account: the SQLite file must exist (a
 * mistyped --db must not create an empty database), and the account must be in it; either
 * missing stops the command with one line, the database closed first.
 */
async function withAccount<T>(db: string, accountId: string, run: (store: AccountsStore) => Promise<T>): Promise<T> {
  const unsupported = unsupportedDbProblem(db);
  if (unsupported !== null) fail(unsupported);
  if (!isPostgresUrl(db) && db !== ':memory:' && !existsSync(db)) {
    fail(`no accounts database at ${db}: check --db (\`accounts create\` or \`serve\` makes one)`);
  }
  const found = await withStore(db, async (store) => ((await store.getAccount(accountId)) === undefined ? null : { value: await run(store) }));
  if (found === null) fail(`no account ${JSON.stringify(accountId)} in ${describeDb(db)}`);
  return found.value;
}

export interface ServeOptions {
  data: string;
  port: number;
  host: string;
  db: string;
  dev?: boolean;
  widgetTiles?: string;
  widgetTilesAttribution?: string;
  /** Older names of --widget-tiles and --widget-tiles-attribution, still accepted. */
  widgetTileUrl?: string;
  widgetTileAttribution?: string;
  /** Worker processes; default: the number of cores. */
  workers?: number;
  adminTokenFile?: string;
  liveDir?: string;
  /** Given only with --admin-token-file (LiveVenues' default when absent). */
  compactAfter?: number;
  /** Engine threads over one shared snapshot (0: the engine runs on the main thread). */
  engineThreads: number;
  /** The base URL clients use (behind a TLS proxy: `https://api.example.com`), for openapi.json's `servers`. */
  publicUrl?: string;
  /** `--connection-timeout`: a socket silent this long while a request is read or answered is closed, seconds. */
  connectionTimeout: number;
}

/**
 * `--public-url`: an absolute http(s) URL without credentials, query or fragment; a path is
 * kept (a service behind a proxy at `/venues`), its trailing slash dropped.
 */
export function parsePublicUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new InvalidArgumentError(`must be an absolute URL such as https://api.example.com; got ${JSON.stringify(text)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidArgumentError(`must be an http or https URL; got ${JSON.stringify(text)}`);
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') {
    throw new InvalidArgumentError(`must be a base URL without credentials, query or fragment; got ${JSON.stringify(text)}`);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** `--widget-tiles` (and its older name): refused before any data loads by the widget's own rule (src/widget/tile-template.ts). */
export function parseTileTemplate(text: string): string {
  const problem = tileTemplateProblem(text);
  if (problem !== undefined) throw new InvalidArgumentError(problem);
  return text;
}

/** The most engine threads a process may run: each holds its own engine state and JavaScript heap (a typo, 500 for 5, made 511 threads and 2.4 GB a process that never served: audit 73d F4). */
const MAX_ENGINE_THREADS = 64;

function parseEngineThreads(text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || n > MAX_ENGINE_THREADS) throw new InvalidArgumentError(`must be an integer 0..${MAX_ENGINE_THREADS}; got ${JSON.stringify(text)}`);
  return n;
}

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
    fail(`--admin-token-file ${options.adminTokenFile} ${fileProblem(err)}`);
  }
  const problem = operatorTokenProblem(token, options.adminTokenFile!);
  if (problem !== undefined) fail(problem);
  const exposed = operatorTokenFileWarning(options.adminTokenFile!);
  if (exposed !== undefined) process.stderr.write(`${exposed}\n`);
  const dir = options.liveDir ?? `${options.data}.live`;
  // Beside data inside node_modules (the package's own fixtures), the default would put the
  // durable change log where the next npm install deletes it.
  if (options.liveDir === undefined && dir.split(/[\\/]/).includes('node_modules')) {
    fail(`the default live directory ${dir} is inside node_modules, where a reinstall would delete the change log: give --live-dir`);
  }
  // --data is read unless a compaction left a base of its own: a missing or unreadable one is
  // named as such, not as a live directory that cannot be used. Which base that is comes from
  // the directory's files, each checked to be a file before it is read (live-dir-files.ts).
  let base: string;
  try {
    base = LiveVenues.basePath({ dataPath: options.data, dir });
  } catch (err) {
    if (isVenueSearchError(err) && err.param === '--live-dir') fail(`--live-dir ${dir} cannot be used: ${err.message}`);
    throw err;
  }
  const compactedBase = base !== options.data;
  // a compaction never writes an empty base (one of no venue is a snapshot of its header): 0 bytes there is damage
  if (compactedBase && isEmptyFile(base)) fail(`cannot load ${base} with the changes in ${dir}: ${base} is empty; ${DAMAGED_BASE_ADVICE}`);
  const baseProblem = dataFileProblem(base, compactedBase ? 'base' : 'data', true);
  if (baseProblem !== null) fail(baseProblem);
  try {
    const live = await LiveVenues.open({
      dataPath: options.data,
      dir,
      ...(options.compactAfter === undefined ? {} : { compactAfter: options.compactAfter }),
      // a live service may start from --data of no venue (any bytes saying none: 0 bytes, `[]`,
      // blank lines), to be filled through PUT /admin/venues; its compacted base is never empty.
      // The compacted base is a snapshot a compaction wrote, never a venues file to read:
      // anything else there is refused as a snapshot (readSnapshot names what it is not), not
      // read as a venues file whose refusal advises `venue-search import` (audit 67a F9).
      load: async (path) => {
        if (path !== options.data && !isSnapshotFile(path)) readSnapshot(path);
        return (await loadEngineFile(path, fail, loadReport(), 1, path === options.data)).engine;
      },
      onCompaction: (r) =>
        process.stderr.write(`venue-search: compacted ${r.venues} venues (log up to ${r.upToSeq}) in ${Math.round(r.totalMs)} ms, swap ${r.swapMs.toFixed(1)} ms\n`),
      onCompactionFailed: (err, next) => process.stderr.write(`venue-search: ${err.message}${next === null ? '' : `; ${next.note}`}\n`),
    });
    live.engine.warm({ forChanges: true });
    return { live, token, dir };
  } catch (err) {
    // A compacted base of another snapshot format holds changes that are nowhere else (the log
    // was cut): "write it again from the NDJSON" does not apply to it (audit 61c)
    if (isVenueSearchError(err) && compactedBase && err.message.includes(SNAPSHOT_FORMAT_MISMATCH)) {
      fail(
        `the live directory's compacted base ${base} was written by another version (${err.message.slice(err.message.indexOf('format ')).split(';')[0]}), and the changes compacted into it are only there: ` +
          'run the version that wrote it on this directory once more and write its current venues out as NDJSON (docs/updates.md, "Upgrading a live directory"), then start this version from that file with a fresh --live-dir',
      );
    }
    // Something in the way in the live directory (live-dir-files.ts, compaction-leftovers.ts),
    // or its record that cannot be read (data-origin.ts), is not a load that failed; a load
    // that did names the file it read: the compacted base once there is one, not --data
    // (audit 66g F4: it named --data either way).
    if (isVenueSearchError(err) && err.param === '--live-dir') fail(`--live-dir ${dir} cannot be used: ${err.message}`);
    // the compacted base itself unusable (not a snapshot, cut short): damage, with the live directory's way out
    if (isVenueSearchError(err) && compactedBase && err.file === base) fail(`cannot load ${base} with the changes in ${dir}: ${err.message}; ${DAMAGED_BASE_ADVICE}`);
    if (isVenueSearchError(err)) fail(`cannot load ${base} with the changes in ${dir}: ${err.message}`);
    if (isFileError(err)) fail(`--live-dir ${dir} cannot be used: ${liveDirProblem(err as NodeJS.ErrnoException, dir)}`);
    throw err;
  }
}

/**
 * What to do about a live directory's compacted base that cannot be loaded: it is written
 * whole (written, synced, then renamed) and holds the changes compacted into it, which the
 * change log no longer does, so neither --data nor an import stands in for it.
 */
const DAMAGED_BASE_ADVICE =
  'a compaction writes the base whole, so this is damage since it was written (a disk, a copy, an edit), and the changes compacted into it are only there: ' +
  'restore the live directory from a copy taken while its service was stopped, then send the changes accepted since that copy again (docs/updates.md, "A damaged compacted base")';

/** Whether `path` is a regular file of 0 bytes. */
function isEmptyFile(path: string): boolean {
  try {
    const st = statSync(path);
    return st.isFile() && st.size === 0;
  } catch {
    return false;
  }
}

/** Why the live directory (or a file in it) could not be made or opened, in a few words. */
function liveDirProblem(err: NodeJS.ErrnoException, dir: string): string {
  const where = err.path !== undefined && err.path !== dir ? `${err.path}: ` : '';
  if (err.code === 'EEXIST' || err.code === 'ENOTDIR') return `${where}a file is in the way of the folder`;
  return `${where}${writeProblem(err)}`;
}

/**
 * A service started without --admin-token-file serves --data as it is. Flags of live data
 * are then refused (they would be ignored), and live changes kept beside the data (the
 * default live directory holding a change log or a compacted base) are named in a warning:
 * an operator who left the token out of one restart would otherwise serve stale data.
 */
function checkStaticStart(options: ServeOptions): void {
  if (options.liveDir !== undefined || options.compactAfter !== undefined) {
    fail(`${options.liveDir !== undefined ? '--live-dir' : '--compact-after'} is for live data: give --admin-token-file too (without it, --data is served as it is and no change log is read)`);
  }
  const dir = `${options.data}.live`;
  const kept = ['changes.log', 'base.snapshot'].filter((f) => existsSync(join(dir, f)));
  if (kept.length > 0) {
    process.stderr.write(
      `warning: ${dir} holds live changes (${kept.join(', ')}) that this start does NOT serve: --data ${options.data} is served as it is; give --admin-token-file to serve them\n`,
    );
  }
}

/**
 * On a machine of two cores or fewer, a live service started without `node
 * --single-threaded-gc` is told of it on stderr: its queries' largest stall during a
 * compaction was 6.1 to 11.7 ms with Node's defaults, 1.6 to 6.7 ms with the flag (five
 * runs of six under 5 ms; 1M venues; docs/updates.md, "A service on two cores"). A V8 flag
 * of the process's command line only: it cannot be set from here.
 */
function remindOfGcFlag(): void {
  if (availableParallelism() > 2) return;
  if (process.execArgv.some((a) => a === '--single-threaded-gc' || a === '--single_threaded_gc')) return;
  process.stderr.write(
    'venue-search: live data on 2 cores: start node with --single-threaded-gc for shorter query stalls during compactions ' +
      `(node --single-threaded-gc ${process.argv[1] ?? 'main.js'} serve ...; docs/updates.md, "A service on two cores")\n`,
  );
}

/** `cannot load <path>: <why>`, without the path twice when the reason starts with it (`<path>: line 2, ...`). */
function cannotLoad(path: string, why: string): string {
  return why.startsWith(`${path}:`) ? `cannot load ${why}` : `cannot load ${path}: ${why}`;
}

/** The engine threads of `serve --engine-threads N` over the data file held once in shared memory (`processes`: serve's worker processes). */
async function startEnginePool(data: DataFileToLoad, threads: number, processes: number): Promise<EnginePool> {
  const dataPath = data.path;
  try {
    const report = loadReport();
    const started = performance.now();
    const pool = await EnginePool.start(await loadSharedSnapshot(dataPath, fail, report, processes, data.format), threads);
    report?.write(`venue-search: loaded ${pool.venues} venues from ${isSnapshotFile(dataPath) ? 'the snapshot ' : ''}${dataPath} into ${threads} engine thread${threads === 1 ? '' : 's'} in ${secondsSince(started)}\n`);
    return pool;
  } catch (err) {
    if (isVenueSearchError(err)) fail(cannotLoad(dataPath, err.message));
    throw err;
  }
}

/** A load taking longer than this (ms, read and warm) is followed by the advice to serve a snapshot. */
const SNAPSHOT_ADVICE_AFTER_MS = 3000;

/**
 * Where serve reports loading its data (load-engine.ts): stderr; with `--workers N`, each
 * worker loads its own copy and the first reports for all.
 */
function loadReport(): LoadReport {
  return isClusterWorker() && !isFirstClusterWorker() ? null : process.stderr;
}

async function loadEngine(data: DataFileToLoad, processes: number) {
  const dataPath = data.path;
  const report = loadReport();
  try {
    const started = performance.now();
    const { engine, snapshot } = await loadEngineFile(dataPath, fail, report, processes, false, data.format);
    const warming = performance.now();
    engine.warm();
    if (!snapshot) {
      report?.write(`venue-search: built the search and find structures in ${secondsSince(warming)}\n`);
      if (performance.now() - started > SNAPSHOT_ADVICE_AFTER_MS) {
        const out = join(dirname(dataPath), `${basename(dataPath, extname(dataPath))}.vsnap`);
        report?.write(`venue-search: to start in a fraction of the time, save the built engine once (venue-search snapshot --data ${dataPath} --out ${out}) and serve --data ${out}\n`);
      }
    }
    return engine;
  } catch (err) {
    if (isVenueSearchError(err)) fail(cannotLoad(dataPath, err.message));
    throw err;
  }
}

interface DevelopmentKeys {
  readonly accountId: string;
  readonly secretKey: string;
  readonly publicKey: string;
}

/** Where `serve --dev` keeps the development keys of the database `dbPath` (owner-only file). */
export function developmentKeysFile(dbPath: string): string {
  // a server database has no file to sit beside: the working folder holds the keys
  return isPostgresUrl(dbPath) ? 'venue-search.dev-keys.json' : `${dbPath}.dev-keys.json`;
}

function readDevelopmentKeys(file: string): DevelopmentKeys | undefined {
  try {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as Partial<DevelopmentKeys>;
    if (saved.accountId !== DEV_ACCOUNT_ID || typeof saved.secretKey !== 'string' || typeof saved.publicKey !== 'string') return undefined;
    return { accountId: saved.accountId, secretKey: saved.secretKey, publicKey: saved.publicKey };
  } catch {
    return undefined;
  }
}

/**
 * Written to a temporary file then renamed: a concurrent reader sees the old keys or the new,
 * whole. When it creates the file in a git work tree that does not ignore it, says so once
 * (the repository's own .gitignore covers its checkout only; docs/http.md).
 */
function saveDevelopmentKeys(file: string, keys: DevelopmentKeys, dbPath: string): void {
  const created = !existsSync(file);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(keys, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, file);
  if (created && unignoredInGitWorkTree(file)) {
    const accounts = isPostgresUrl(dbPath) ? '' : ` and the accounts database's files (${basename(dbPath)}*)`;
    process.stderr.write(`venue-search: ${file} holds the development secret key, and the git work tree it is in does not ignore it: add *.dev-keys.json${accounts} to your .gitignore\n`);
  }
}

async function keysStillValid(store: AccountsStore, keys: DevelopmentKeys): Promise<boolean> {
  const now = operatorNow();
  for (const key of [keys.secretKey, keys.publicKey]) {
    const principal = await store.findKey(hashApiKey(key), now);
    if (principal?.accountId !== DEV_ACCOUNT_ID) return false;
  }
  return true;
}

/**
 * The development account's keys: the saved ones while they still work, so a second
 * `serve --dev` on the same database (another terminal, a restart) shares the account as it
 * is: no key revoked, no balance reset, usage kept. New keys are issued only when the
 * account is new, or when the saved keys are lost or no longer valid (then with the normal
 * 24 h grace, so a server still holding older keys keeps working).
 */
async function developmentKeys(store: AccountsStore, dbPath: string): Promise<DevelopmentKeys> {
  const file = developmentKeysFile(dbPath);
  for (let attempt = 0; ; attempt++) {
    const saved = readDevelopmentKeys(file);
    if (saved !== undefined && (await keysStillValid(store, saved))) return saved;
    if ((await store.getAccount(DEV_ACCOUNT_ID)) === undefined) {
      try {
        const opened = await openAccount(store, 'Enterprise', { accountId: DEV_ACCOUNT_ID, nowMs: operatorNow() });
        const keys = { accountId: opened.accountId, secretKey: opened.secretKey, publicKey: opened.publicKey };
        saveDevelopmentKeys(file, keys, dbPath);
        return keys;
      } catch (err) {
        // another server created it between the check and the insert: read what it saved
        if (attempt < 3) {
          await new Promise((resolve) => setTimeout(resolve, 200));
          continue;
        }
        throw err;
      }
    }
    const rotated = await rotateAccountKeys(store, DEV_ACCOUNT_ID, { graceMs: DEFAULT_ROTATION_GRACE_MS, nowMs: operatorNow() });
    const keys = { accountId: DEV_ACCOUNT_ID, secretKey: rotated.secretKey!, publicKey: rotated.publicKey! };
    saveDevelopmentKeys(file, keys, dbPath);
    return keys;
  }
}

/**
 * With a compacted base in the live directory, what is served is that base (and the changes
 * after it), not --data (docs/updates.md): say so, and warn when --data is not the file the
 * directory started from (a new data file shipped to a live-data service is not read),
 * whatever its modification time (src/changelog/data-origin.ts).
 */
function compactedBaseLines(dataPath: string, dir: string): string[] {
  const basePath = LiveVenues.basePath({ dataPath, dir });
  if (basePath === dataPath) return [];
  const lines = [`Base: ${basePath} (compacted from --data and the changes since; --data is not read while it exists)`];
  try {
    // the recorded origin says it by content; a directory without one, by modification time
    const origin = isDataOrigin(dir, dataPath);
    if (origin === false || (origin === undefined && statSync(dataPath).mtimeMs > statSync(basePath).mtimeMs)) {
      lines.push(`warning: --data ${dataPath} is not the file ${basePath} was compacted from, and is NOT served; to serve it, start with a fresh --live-dir (its changes are then not carried over)`);
    }
  } catch {
    // --data gone: the compacted base is all there is, as said above
  }
  return lines;
}

/**
 * How long a stop signal waits for the requests in flight past the connection timeout, ms: a
 * stop waits at most the connection timeout plus this (40 s with the default 30 s).
 */
const DRAIN_MARGIN_MS = 10_000;
/** How long a stop waits, after the service has closed, for the request log's last lines to be written, ms. */
const LOG_DRAIN_LIMIT_MS = 2_000;

/**
 * The service's base URL as printed (`http://host:port`): a wildcard address listens
 * everywhere but is no address to visit (browsers refuse 0.0.0.0), so it is named by this
 * machine's loopback.
 */
function printedBase(listenHost: string, port: number): string {
  const host = listenHost === '0.0.0.0' ? '127.0.0.1' : listenHost === '::' ? '::1' : listenHost;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** The lines `serve` prints once it listens: where, and the development keys with --dev. */
async function servingLines(options: ServeOptions, port: number, dev: DevelopmentKeys | undefined, workers: number, served = options.data): Promise<string[]> {
  const base = printedBase(options.host, port);
  const processes = workers > 1 ? `, ${workers} worker processes` : '';
  const threads = options.engineThreads > 0 ? `, ${options.engineThreads} engine thread${options.engineThreads === 1 ? '' : 's'}${workers > 1 ? ' each' : ''} over one shared copy of the data` : '';
  // `/v1/` is the routes' prefix, not a page: the line names the document that lists them
  const lines = [`venue-search: serving ${served} on ${base}/v1/ (accounts: ${describeDb(options.db)}${processes}${threads}; the routes: ${base}/v1/openapi.json)`];
  if (dev !== undefined) {
    lines.push(
      `Development account (Enterprise plan, opened with 10 GBP credit; keys kept in ${developmentKeysFile(options.db)}):`,
      `  account id  ${dev.accountId}`,
      `  secret key  ${dev.secretKey}`,
      `  public key  ${dev.publicKey}`,
      `Try: curl -H "API-Key: ${dev.secretKey}" "${base}/v1/find?q=coffee"`,
      `Widget: ${base}/v1/widget/?key=${dev.publicKey}`,
    );
  }
  return lines;
}

/** `serve --workers N` (N > 1), the primary: the development keys once, then the workers. */
async function servePrimary(options: ServeOptions, workers: number): Promise<void> {
  let dev: DevelopmentKeys | undefined;
  if (options.dev === true) dev = await withStore(options.db, (store) => developmentKeys(store, options.db));
  let port: number;
  holdDataFile(options.data);
  try {
    port = await runPrimary(workers, (line) => process.stderr.write(`${line}\n`));
  } catch (err) {
    // the first worker printed why it could not start (one line, as a single process would),
    // or, killed, could not: then the primary says it
    if (err instanceof WorkerStartError) {
      if (err.said !== null) process.stderr.write(`${err.said}\n`);
      process.exit(err.exitCode);
    }
    fail(`cannot start ${workers} workers: ${(err as Error).message}`);
  }
  process.stderr.write(`${(await servingLines(options, port, dev, workers)).join('\n')}\n`);
}

/**
 * buildApp, its module loaded when serve needs it: fastify and the other HTTP packages take
 * about 0.2 s to load, which serve spends while its data file is read (not before the
 * command is parsed). The packages were found when the command was registered
 * (service-peers.ts); one missing since is named as there.
 */
async function loadBuildApp(): Promise<typeof BuildApp> {
  try {
    return (await import('../http/app.js')).buildApp;
  } catch (err) {
    const missing = missingPackageOf(err);
    if (missing !== undefined) fail(installHint(missing));
    throw err;
  }
}

/** The widget's options from serve's flags; the new names win over the older ones. */
export function widgetOptionsOf(options: Pick<ServeOptions, 'widgetTiles' | 'widgetTilesAttribution' | 'widgetTileUrl' | 'widgetTileAttribution'>): WidgetOptions {
  const tileUrl = options.widgetTiles ?? options.widgetTileUrl;
  const tileAttribution = options.widgetTilesAttribution ?? options.widgetTileAttribution;
  return {
    ...(tileUrl === undefined ? {} : { tileUrl }),
    ...(tileAttribution === undefined ? {} : { tileAttribution }),
  };
}

/**
 * With VENUE_SEARCH_START_TIMES=1, serve prints its start-up phases on stderr, each as
 * `venue-search start: <phase> at <ms> ms` since the process started (the bench's
 * serve-start figure reads them: bench/lib/serve-start.ts).
 */
function startTime(phase: string): void {
  if (process.env.VENUE_SEARCH_START_TIMES === '1') process.stderr.write(`venue-search start: ${phase} at ${performance.now().toFixed(1)} ms\n`);
}

async function serve(options: ServeOptions): Promise<void> {
  startTime('command parsed');
  // A stderr line that cannot be written (stderr a file on a full disk) is lost, not the
  // service: without a listener the stream's 'error' ends the process. The stream is not
  // destroyed by it: the next line is written once there is room (audit 66g F1).
  process.stderr.on('error', () => {});
  // Live data has one writer: its change log and compactions belong to a single process.
  if (options.adminTokenFile !== undefined && (options.workers ?? 1) > 1) {
    fail('--admin-token-file (live data) runs in one process: leave out --workers or give --workers 1');
  }
  if (options.adminTokenFile === undefined && !isClusterWorker()) checkStaticStart(options);
  const workers = options.adminTokenFile !== undefined ? 1 : (options.workers ?? availableParallelism());
  // said before the data is loaded, in the primary before any worker starts
  const dbProblem = accountsDbPrecheck(options.db);
  if (dbProblem !== null) fail(dbProblem);
  const portProblem = isClusterWorker() ? null : await listenPrecheck(options.host, options.port);
  if (portProblem !== null) fail(portProblem);
  if (workers > 1 && !isClusterWorker()) return servePrimary(options, workers);
  if (options.adminTokenFile !== undefined && options.engineThreads > 0) {
    fail('--admin-token-file (live data) changes the engine in place: leave out --engine-threads');
  }
  const live = options.adminTokenFile === undefined ? null : await openLive(options);
  if (live !== null) remindOfGcFlag(); // once the live engine opened: not before an error that stops the start
  // a worker of `--workers N` serves the file its siblings serve, even if --data was replaced since (held-data-file.ts)
  const served = dataFileToLoad(options.data);
  if (served.warning !== null) process.stderr.write(`${served.warning}\n`);
  const pool = options.engineThreads > 0 ? await startEnginePool(served, options.engineThreads, workers) : null;
  // A snapshot is read by the thread pool (readSnapshotAsync) while the HTTP packages load below: the two overlap.
  const loading = live === null && pool === null ? loadEngine(served, workers) : null;
  loading?.catch(() => {}); // awaited below: a failure meanwhile is not an unhandled rejection
  const buildApp = await loadBuildApp();
  startTime('HTTP packages loaded');
  const engine = live?.live.engine ?? pool ?? (await loading!);
  startTime('engine loaded and warmed');
  const store = await openStore(options.db);
  startTime('accounts opened');
  const admin = live === null ? {} : { admin: { live: live.live, token: live.token } };
  let serviceTime: ServiceClock;
  try {
    serviceTime = serviceClock();
  } catch (err) {
    fail((err as Error).message);
  }
  const { clock, file: clockFile } = serviceTime;
  if (clockFile !== undefined) process.stderr.write(`warning: the service clock reads ${clockFile} (${CLOCK_FILE_ENV}; for tests only)\n`);
  const connectionTimeoutMs = options.connectionTimeout * 1000;
  const app = await buildApp({ engine, accounts: store, clock, logger: { level: 'info' }, widget: widgetOptionsOf(options), publicUrl: options.publicUrl, connectionTimeoutMs, ...admin });
  startTime('app built');
  const drainLimitMs = connectionTimeoutMs + DRAIN_MARGIN_MS;
  const close = async (signal: string): Promise<void> => {
    if (!isClusterWorker()) process.stderr.write(`venue-search: ${signal}: closing (requests in flight are answered first)\n`);
    // A request stuck on the accounts database (a pooler queueing while PostgreSQL is down)
    // would hold the close for minutes (audit 61c: 118 s, past systemd's 90 s stop timeout);
    // its client was dropped at the connection timeout, and its charge's deadline has passed.
    // Answers still being sent to a slow reader (connection-draining.ts) hold it too; those
    // charged and not sent by then are named: charged, not delivered (audit 70d F2).
    setTimeout(() => {
      const unsent = chargedAnswersNotSent(app.server);
      process.stderr.write(`venue-search: ${signal}: requests still waiting for the accounts database or answers still being sent after ${drainLimitMs / 1000} s; stopping without them (requests not charged yet are not charged)\n`);
      if (unsent.length > 0) process.stderr.write(`venue-search: ${signal}: code charged_client_gone: requests ${unsent.join(', ')} were charged but their answers had not left the service (the client stopped reading): charged, not delivered\n`);
      process.exit(1);
    }, drainLimitMs).unref();
    await app.close();
    await pool?.close();
    await live?.live.close();
    await store.close();
    // the last request log lines (a charged_client_gone logged as the last connection closed) written before the exit
    await stdoutLogDrained(LOG_DRAIN_LIMIT_MS);
    process.exit(0);
  };
  // `on`, not `once`: a stop signal while closing is ignored, not Node's default (death). A
  // worker of `serve --workers N` stopped by systemd gets two SIGTERMs, the unit's (sent to
  // every process of its cgroup) and its primary's; the second killed it with its requests
  // in flight (audit 62b finding 3). The drain limit above still ends a close that hangs.
  let closing = false;
  const onStop = (signal: NodeJS.Signals): void => {
    if (closing) return;
    closing = true;
    void close(signal);
  };
  process.on('SIGINT', onStop);
  process.on('SIGTERM', onStop);
  try {
    await app.listen({ port: options.port, host: options.host });
  } catch (err) {
    await store.close();
    fail(listenProblem(err, options.host, options.port));
  }
  startTime('listening');
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  // a worker reports to its primary, which prints once for all
  if (isClusterWorker()) return reportListening(port);
  const dev = options.dev === true ? await developmentKeys(store, options.db) : undefined;
  // A live service serves its compacted base (and the log over it) once there is one, not --data.
  const lines = await servingLines(options, port, dev, 1, live === null ? options.data : LiveVenues.basePath({ dataPath: options.data, dir: live.dir }));
  if (live !== null) {
    const base = printedBase(options.host, port);
    const { batches, tornBytes, tornWhole } = live.live.opened;
    const torn =
      tornBytes === 0
        ? ''
        : tornWhole === true
          ? `; cut a damaged last line of ${tornBytes} bytes from the log (its checksum fails: a write a crash interrupted, or damage since; kept in changes.log.torn)`
          : `; cut a torn last line of ${tornBytes} bytes from the log, a batch never acknowledged (kept in changes.log.torn)`;
    lines.splice(
      1,
      0,
      `Admin routes on ${base}/admin/ (PUT venues, DELETE venues/{id}, POST compact; live data in ${live.dir}; ${batches} logged batches replayed, ${live.live.engine.pendingChanges} pending changes${torn})`,
      ...compactedBaseLines(options.data, live.dir),
    );
  }
  process.stderr.write(`${lines.join('\n')}\n`);
}

/** The connection timeout's default, seconds (buildApp's connectionTimeoutMs). */
const DEFAULT_CONNECTION_TIMEOUT_S = 30;

/** `--connection-timeout`: whole seconds 1..600. */
function parseConnectionTimeout(text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < 1 || n > 600) throw new InvalidArgumentError(`must be a whole number of seconds 1..600; got ${JSON.stringify(text)}`);
  return n;
}

function parseWorkers(text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < 1 || n > 256) throw new InvalidArgumentError(`must be an integer 1..256; got ${JSON.stringify(text)}`);
  return n;
}

export function registerServiceCommands(program: Command): void {
  program
    .command('serve')
    .description('serve the /v1 HTTP interface over a venues file')
    .requiredOption('--data <file>', '(required) venues file (NDJSON, JSON array or GeoJSON) or a snapshot written by `venue-search snapshot`')
    .option('--port <port>', 'TCP port', parsePort, 8080)
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--db <file>', DB_OPTION_HELP, DEFAULT_DB)
    .option('--workers <n>', 'worker processes serving the one port, each with its own copy of the venue data (default: the number of cores; to hold the data once, see --engine-threads)', parseWorkers)
    .option('--engine-threads <n>', 'engine threads per process over one copy of the venue data in shared memory (0: the engine runs on the main thread)', parseEngineThreads, 0)
    .option('--dev', 'create or reuse the development account and print its keys (kept beside the database, reused while valid)')
    .option('--connection-timeout <seconds>', 'close a connection silent this long while a request is read or answered (a client that stopped reading); a stop waits at most this plus 10 s for the requests in flight', parseConnectionTimeout, DEFAULT_CONNECTION_TIMEOUT_S)
    .option('--public-url <url>', 'the base URL clients use, named in /v1/openapi.json (behind a TLS proxy: https://api.example.com; default: the scheme and Host of each request)', parsePublicUrl)
    .option('--widget-tiles <template>', 'XYZ base-map tiles for the widget, e.g. https://tiles.example.org/{z}/{x}/{y}.png (default: the offline base map)', parseTileTemplate)
    .option('--widget-tiles-attribution <text>', 'credit line shown on the widget map when tiles are used (plain text)')
    .addOption(new Option('--widget-tile-url <template>', 'older name of --widget-tiles').hideHelp().argParser(parseTileTemplate))
    .addOption(new Option('--widget-tile-attribution <text>', 'older name of --widget-tiles-attribution').hideHelp())
    .option('--admin-token-file <file>', 'enable PUT/DELETE /admin/venues (live data), authenticated by the token in this file; one process')
    .option('--live-dir <dir>', 'change log and compacted snapshots of live data (default: <data>.live)')
    .option('--compact-after <n>', 'pending changes that start a compaction in a worker thread (default 50000; 0: never)', parseCount)
    .action(async (options: ServeOptions) => serve(options));

  const accounts = program.command('accounts').description('operator actions on accounts');
  accounts
    .command('create')
    .description('open an account with 10 GBP credit; prints its id, secret key and public key (shown once)')
    .addOption(new Option('--plan <plan>', '(required) rate-limit plan').choices(PLAN_NAMES).makeOptionMandatory())
    .option('--db <file>', DB_OPTION_HELP, DEFAULT_DB)
    .action(async (options: { plan: PlanName; db: string }) => {
      const opened = await withStore(options.db, (store) => openAccount(store, options.plan, { nowMs: operatorNow() }));
      printJson(opened);
    });
  accounts
    .command('topup')
    .description('credit an account with an amount in GBP (e.g. 25 or 12.50)')
    .argument('<accountId>')
    .argument('<amountGBP>')
    .option('--db <file>', DB_OPTION_HELP, DEFAULT_DB)
    .action(async (accountId: string, amountText: string, options: { db: string }) => {
      let amountMicros: number;
      try {
        amountMicros = parseGbpToMicros(amountText);
      } catch (err) {
        fail((err as Error).message);
      }
      const balanceMicros = await withAccount(options.db, accountId, (store) => store.topUp(accountId, amountMicros, operatorNow()));
      printJson({ accountId, toppedUpMicros: amountMicros, balanceMicros, balanceGBP: (balanceMicros / MICROS_PER_GBP).toFixed(6) });
    });

  accounts
    .command('origins')
    .description("set the web origins allowed to embed the widget with the account's public key (the API sends no CORS headers: docs/widget.md); no origins: print the list")
    .argument('<accountId>')
    .argument('[origins...]', 'origins like https://www.example.com (scheme, host, optional port)')
    .option('--clear', 'remove every origin: the public key works from any origin again')
    .option('--db <file>', DB_OPTION_HELP, DEFAULT_DB)
    .action(async (accountId: string, originTexts: string[], options: { db: string; clear?: boolean }) => {
      let origins: string[];
      try {
        origins = [...new Set(originTexts.map(normalizeOrigin))];
      } catch (err) {
        fail((err as Error).message);
      }
      if (options.clear === true && origins.length > 0) fail('give either origins or --clear, not both');
      const allowed = await withAccount(options.db, accountId, async (store) => {
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
    .option('--db <file>', DB_OPTION_HELP, DEFAULT_DB)
    .addOption(new Option('--only <kind>', 'rotate only this key').choices(['secret', 'public']))
    .option('--grace-hours <hours>', 'how long the old keys keep working', parseGraceHours, 24)
    .action(async (accountId: string, options: { db: string; only?: 'secret' | 'public'; graceHours: number }) => {
      const rotated = await withAccount(options.db, accountId, (store) =>
        rotateAccountKeys(store, accountId, {
          ...(options.only === undefined ? {} : { kinds: [options.only] }),
          graceMs: Math.round(options.graceHours * 3_600_000),
          nowMs: operatorNow(),
        }),
      );
      printJson({ ...rotated, previousKeysExpireAt: new Date(rotated.previousKeysExpireAtMs).toISOString() });
    });
}
