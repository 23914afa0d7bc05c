/**
 * `venue-search venues upsert --server URL --file changes.ndjson [--token-file F] [--batch 1000]`:
 * sends an NDJSON file of venue records to a running service's `PUT /admin/venues`
 * (docs/updates.md) in batches, with a progress bar on a terminal. Each batch is applied
 * and durable when its answer arrives; on the first refused batch the command stops,
 * naming the file line of the bad record (earlier batches stay applied). The token comes
 * from --token-file or VENUE_SEARCH_ADMIN_TOKEN. Needs no service packages (plain fetch).
 * `venue-search venues remove --server URL --file ids.txt`: the venues of a file of ids removed.
 * `venue-search venues check --file changes.ndjson`: every bad record of an upsert file listed, nothing sent.
 */
import { createReadStream, readFileSync, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { Command, InvalidArgumentError } from 'commander';
import { binaryFormatProblem, fileHead, fileProblem } from '../data/file-problem.js';
import { isSnapshot } from '../snapshot/snapshot-format.js';
import { notUtf8FileProblem, Utf8Check } from '../data/utf8-check.js';
import { describeLocation } from '../data/record-location.js';
import { VENUE_ID_MAX_LENGTH, VENUE_ID_PATTERN } from '../schema/venue-id.js';
import { operatorTokenFileWarning, operatorTokenProblem } from './operator-token.js';
import { progressBar } from './progress-bar.js';
import { STOP_SIGNALS } from './stop-signals.js';

interface UpsertOptions {
  server: string;
  file: string;
  tokenFile?: string;
  batch: number;
}

/** Largest batch body sent, bytes (the service's default limit is 32 MiB). */
const MAX_BATCH_BYTES = 8 * 1024 * 1024;

function fail(message: string): never {
  process.stderr.write(`venue-search: ${message}\n`);
  process.exit(1);
}

/** `<server>/admin/venues`; the server must be an http(s) URL. */
function adminVenuesUrl(server: string): URL {
  let base: URL;
  try {
    base = new URL(server.endsWith('/') ? server : `${server}/`);
  } catch {
    fail(`--server must be the service's URL, such as http://127.0.0.1:8080; got ${JSON.stringify(server)}`);
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') fail(`--server must be an http:// or https:// URL; got ${JSON.stringify(server)}`);
  return new URL('admin/venues', base);
}

function parseBatch(text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < 1 || n > 100_000) throw new InvalidArgumentError(`must be 1..100000; got ${JSON.stringify(text)}`);
  return n;
}

/** The operator token from --token-file or VENUE_SEARCH_ADMIN_TOKEN, checked by serve's rule; stops the command when it is missing or unusable. */
function operatorToken(tokenFile: string | undefined): string {
  let token: string | undefined;
  try {
    token = tokenFile !== undefined ? readFileSync(tokenFile, 'utf8').trim() : process.env.VENUE_SEARCH_ADMIN_TOKEN;
  } catch (err) {
    fail(`--token-file ${tokenFile} ${fileProblem(err)}`);
  }
  if (token === undefined || token === '') fail('give the operator token with --token-file or VENUE_SEARCH_ADMIN_TOKEN');
  const tokenProblem = operatorTokenProblem(token, tokenFile ?? 'VENUE_SEARCH_ADMIN_TOKEN');
  if (tokenProblem !== undefined) fail(tokenProblem);
  const exposed = tokenFile === undefined ? undefined : operatorTokenFileWarning(tokenFile);
  if (exposed !== undefined) process.stderr.write(`${exposed}\n`);
  return token;
}

/** The size of the --file to send, bytes; stops the command when it is not a readable file. */
function inputFileBytes(file: string, what: string): number {
  try {
    const stat = statSync(file);
    if (!stat.isFile()) fail(`--file ${file} is not a file (give ${what})`);
    return stat.size;
  } catch (err) {
    fail(`--file ${file} ${fileProblem(err)}`);
  }
}

/**
 * Stops the command, before anything is sent, when `file` is not UTF-8 text: a compressed or
 * binary file (gzip, Parquet, a snapshot...) said as every reader says it (audit 73d F2: they
 * were told they were Latin-1, and to convert them with iconv), or a file saved as Latin-1,
 * naming the line and byte of its first invalid byte; read as UTF-8, such bytes were sent as
 * U+FFFD and the service stored the mangled names (audit 68e F1, on this route too).
 */
async function checkTextFile(file: string, what: string): Promise<void> {
  const head = fileHead(file, 8);
  if (isSnapshot(head)) fail(`--file ${file} is a venue-search snapshot (venues built for serving), not a file to send: give ${what}; nothing was sent`);
  const binary = binaryFormatProblem(head);
  if (binary !== undefined) fail(`--file ${file} ${binary}; nothing was sent`);
  const check = new Utf8Check();
  let at = -1;
  for await (const chunk of createReadStream(file)) {
    at = check.push(chunk as Buffer);
    if (at >= 0) break;
  }
  if (at < 0) at = check.end();
  if (at >= 0) fail(`--file ${file} ${notUtf8FileProblem(file, at, check.badByte)}; nothing was sent`);
}

/** The codes of a fetch that failed before its request could reach the service (no connection made). */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

/**
 * Why a fetch failed (undici's "fetch failed" carries the cause: `connect ECONNREFUSED
 * 127.0.0.1:8080`), and whether its request may have reached the service (false when no
 * connection was made).
 */
function fetchFailure(err: unknown, url: URL): { why: string; mayHaveArrived: boolean } {
  const cause = (err as { cause?: NodeJS.ErrnoException & { errors?: NodeJS.ErrnoException[] } }).cause;
  // fetch never connects to the ports browsers block (the Fetch standard's "bad port")
  if (cause?.message === 'bad port') return { why: `fetch refuses port ${url.port} (one of the ports browsers block): serve the admin routes on another port`, mayHaveArrived: false };
  const code = cause?.code ?? cause?.errors?.[0]?.code;
  // a TLS handshake that failed (an https:// URL of a plain-HTTP service, a certificate not
  // trusted) ends before any byte of the request is sent
  if (code !== undefined && (/^ERR_(?:SSL|TLS)_/.test(code) || CERTIFICATE_CODES.has(code))) {
    const reason = (cause as { reason?: unknown } | undefined)?.reason;
    const said = typeof reason === 'string' ? reason : (cause?.message ?? code).split('\n')[0]!;
    const plain = code === 'ERR_SSL_WRONG_VERSION_NUMBER' && url.protocol === 'https:' ? ': the service answers plain HTTP, give an http:// URL' : '';
    return { why: `the TLS handshake failed (${said})${plain}`, mayHaveArrived: false };
  }
  const why = cause?.message || cause?.errors?.[0]?.message || (err as Error).message;
  return { why, mayHaveArrived: code === undefined || !NOT_CONNECTED.has(code) };
}

/** OpenSSL's certificate verification failures (Node's error codes): the handshake stops before the request. */
const CERTIFICATE_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'CERT_SIGNATURE_FAILURE',
]);

/**
 * Why the service answered 404 at `adminUrl` (`<server>/admin/venues`): a --server ending in
 * /v1 (the admin routes are at the service's root, not under /v1), else a service without
 * live data.
 */
function notFoundHint(adminUrl: URL): string {
  const server = adminUrl.pathname.replace(/\/admin\/venues(?:\/.*)?$/, '');
  if (/\/v1$/.test(server)) return ` (--server is the service's root URL, without /v1: ${adminUrl.origin}${server.slice(0, -3)})`;
  return ' (a service started without --admin-token-file has no /admin routes)';
}

/** A batch of a file's non-blank lines as `venues upsert` sends it; `read`: the file's bytes read up to its end. */
interface LineBatch {
  readonly lines: readonly string[];
  /** The file's (1-based) line number of each. */
  readonly lineNumbers: readonly number[];
  readonly read: number;
}

/** `file`'s non-blank lines in batches of at most `size` records and about MAX_BATCH_BYTES. */
async function* lineBatches(file: string, size: number): AsyncGenerator<LineBatch, void, void> {
  let lines: string[] = [];
  let lineNumbers: number[] = [];
  let bytes = 0;
  let lineNo = 0;
  let read = 0;
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
    lineNo++;
    read += Buffer.byteLength(line) + 1;
    if (line.trim() === '') continue;
    lines.push(line);
    lineNumbers.push(lineNo);
    bytes += line.length + 1;
    if (lines.length >= size || bytes >= MAX_BATCH_BYTES) {
      yield { lines, lineNumbers, read };
      lines = [];
      lineNumbers = [];
      bytes = 0;
    }
  }
  if (lines.length > 0) yield { lines, lineNumbers, read };
}

async function upsertFile(options: UpsertOptions): Promise<void> {
  const token = operatorToken(options.tokenFile);
  const what = 'the NDJSON file of venue records';
  const total = inputFileBytes(options.file, what);
  await checkTextFile(options.file, what);
  const url = adminVenuesUrl(options.server);
  const bar = progressBar(process.stderr, 'bytes');
  const sums = { batches: 0, records: 0, inserted: 0, replaced: 0 };
  /** The batch being sent (undefined between two). */
  let sending: LineBatch | undefined;
  const send = async (batch: LineBatch): Promise<void> => {
    const { lines, lineNumbers } = batch;
    let res: Response;
    try {
      sending = batch;
      res = await fetch(url, {
        method: 'PUT',
        headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${token}` },
        body: lines.join('\n'),
      });
    } catch (err) {
      bar.stop();
      const { why, mayHaveArrived } = fetchFailure(err, url);
      const lineRange = `the batch of lines ${lineNumbers[0]}..${lineNumbers.at(-1)}`;
      fail(
        `cannot reach ${url.origin}: ${why} (${sums.batches} batches applied before; ${mayHaveArrived ? `${lineRange} was sent and may or may not be applied` : `${lineRange} was not sent`}: running the same file again is safe, upserts replace by id)`,
      );
    }
    const answer = (await res.json().catch(() => ({}))) as { message?: string; param?: string; inserted?: number; replaced?: number };
    sending = undefined;
    if (!res.ok) {
      bar.stop();
      const inBatch = /line (\d+)/.exec(answer.message ?? '');
      const fileLine = inBatch ? lineNumbers[Number(inBatch[1]) - 1] : undefined;
      const where = fileLine !== undefined ? `${describeLocation({ file: options.file, line: fileLine })}: ` : '';
      // the service numbers the batch's records; the file's line numbers are the ones to say
      if (fileLine !== undefined) answer.message = answer.message!.replace(/\bline (\d+)\b/g, (_m, n: string) => `line ${lineNumbers[Number(n) - 1] ?? n}`);
      const hint = res.status === 404 && sums.batches === 0 ? notFoundHint(url) : '';
      const check = res.status === 400 ? ` (\`venue-search venues check --file ${options.file}\` lists every bad record, sending nothing)` : '';
      fail(`${where}batch of lines ${lineNumbers[0]}..${lineNumbers.at(-1)} refused (${res.status}): ${answer.message ?? res.statusText}${hint}; ${sums.batches} earlier batches were applied${nextStep(res.status, 'upserts replace by id')}${check}`);
    }
    sums.batches++;
    sums.records += lines.length;
    sums.inserted += answer.inserted ?? 0;
    sums.replaced += answer.replaced ?? 0;
    bar.update(batch.read, total);
  };
  // Stopped by the operator (Ctrl-C): what was applied, and that the file can be sent again
  // (the bar, stopped first, restores the terminal: progress-bar.ts)
  const onStop = (signal: NodeJS.Signals): void => {
    bar.stop();
    const inFlight = sending !== undefined ? `; the batch of lines ${sending.lineNumbers[0]}..${sending.lineNumbers.at(-1)} was sent and may or may not be applied` : '';
    process.stderr.write(`venue-search: ${signal}: stopped after ${sums.batches} batches applied (${sums.records} records)${inFlight}: running the same file again is safe, upserts replace by id\n`);
    process.kill(process.pid, signal);
  };
  for (const signal of STOP_SIGNALS) process.once(signal, onStop);
  for await (const batch of lineBatches(options.file, options.batch)) await send(batch);
  for (const signal of STOP_SIGNALS) process.off(signal, onStop);
  bar.stop();
  // not an error (a feed's minute with no change), but said: an export that failed looks the same (audit 73d F6)
  if (sums.records === 0) process.stderr.write(`venue-search: --file ${options.file} holds no venue record (${total === 0 ? 'it is empty' : 'only blank lines'}): nothing was sent\n`);
  process.stdout.write(`${JSON.stringify(sums, null, 2)}\n`);
}

/** Bad records `venues check` lists one by one; past these, it counts them. */
const LISTED_PROBLEMS = 100;

/**
 * `venues check`: every record of an upsert file checked as `venues upsert` would have the
 * service check it, batch by batch (`--batch`: a duplicate id is refused within one batch
 * only), sending nothing: each bad record is said on stderr (file line, venue, field), and the
 * command exits 1 if there is any (audit 74c F3: `upsert` stops at the first, so a file with
 * N bad records took N runs to fix).
 */
async function checkFile(options: Pick<UpsertOptions, 'file' | 'batch'>): Promise<void> {
  const what = 'the NDJSON file of venue records';
  const total = inputFileBytes(options.file, what);
  await checkTextFile(options.file, what);
  // the engine's rules, loaded only by this command: the others need none of the engine
  const { upsertBatchProblems } = await import('../live/live-changes.js');
  const bar = progressBar(process.stderr, 'bytes');
  let records = 0;
  let bad = 0;
  const said: string[] = [];
  const report = (message: string): void => {
    bad++;
    if (said.length < LISTED_PROBLEMS) said.push(message);
  };
  for await (const batch of lineBatches(options.file, options.batch)) {
    const parsed: unknown[] = [];
    const lineOf: number[] = [];
    /** The batch's problems as [file line, message], said in line order. */
    const problems: Array<[number, string]> = [];
    batch.lines.forEach((line, k) => {
      const fileLine = batch.lineNumbers[k]!;
      try {
        parsed.push(JSON.parse(line.trim()));
        lineOf.push(fileLine);
      } catch (e) {
        problems.push([fileLine, `${describeLocation({ file: options.file, line: fileLine })}: not JSON: ${(e as Error).message}`]);
      }
    });
    for (const problem of upsertBatchProblems(parsed, (k) => ({ file: options.file, line: lineOf[k]! }))) problems.push([problem.line ?? 0, problem.message]);
    for (const [, message] of problems.sort((a, b) => a[0] - b[0])) report(message);
    records += batch.lines.length;
    bar.update(batch.read, total);
  }
  bar.stop();
  for (const message of said) process.stderr.write(`venue-search: ${message}\n`);
  if (bad > said.length) process.stderr.write(`venue-search: and ${bad - said.length} more bad records (the first ${LISTED_PROBLEMS} are listed)\n`);
  process.stdout.write(`${JSON.stringify({ records, bad }, null, 2)}\n`);
  if (bad > 0) process.exitCode = 1;
}

/**
 * Stops the command, before anything is sent, at the first line of `file` that cannot be a
 * venue id (VENUE_ID_PATTERN): a venue-records file given to `remove` (each line a JSON
 * record) would otherwise be sent line by line as ids, every one unknown.
 */
function checkIdLines(file: string): void {
  const idPattern = new RegExp(VENUE_ID_PATTERN);
  const lines = readFileSync(file, 'utf8').split('\n');
  for (let k = 0; k < lines.length; k++) {
    const id = lines[k]!.trim();
    if (id === '' || (idPattern.test(id) && id.length <= VENUE_ID_MAX_LENGTH)) continue;
    const shown = id.length > 60 ? `${id.slice(0, 60)}…` : id;
    const record = id.startsWith('{') ? ' (a venue record: this command takes venue ids, one a line; `venues upsert` takes records)' : '';
    fail(`${describeLocation({ file, line: k + 1 })}: ${JSON.stringify(shown)} is not a venue id${record}; nothing was removed`);
  }
}

/**
 * `venues remove`: each venue id of the file (one a line) taken out of a running service,
 * one `DELETE /admin/venues/{id}` each (durable when answered). An id the service does not
 * hold (404 venue_not_found) is counted as unknown, not an error, and named on stderr with its
 * line; an id the file gave before is not sent again (counted as repeated); any other refusal
 * stops the command, naming the file line (earlier removals stay applied). Stopped by a
 * signal, it says how far it went (audit 75b F1, F2).
 */
async function removeFile(options: Omit<UpsertOptions, 'batch'>): Promise<void> {
  const token = operatorToken(options.tokenFile);
  const what = 'a file of venue ids, one a line';
  const total = inputFileBytes(options.file, what);
  await checkTextFile(options.file, what);
  const base = adminVenuesUrl(options.server);
  checkIdLines(options.file);
  const bar = progressBar(process.stderr, 'bytes');
  const sums = { removed: 0, unknown: 0, repeated: 0 };
  /** Each id's first line in the file. */
  const firstLine = new Map<string, number>();
  const notes: string[] = [];
  const note = (message: string): void => {
    if (notes.length < LISTED_PROBLEMS) notes.push(message);
  };
  let lineNo = 0;
  let read = 0;
  /** The line whose removal was sent and not yet answered, if any. */
  let sending: number | undefined;
  const onStop = (signal: NodeJS.Signals): void => {
    bar.stop();
    const inFlight = sending !== undefined ? `; the removal of line ${sending} was sent and may or may not be applied` : '';
    process.stderr.write(`venue-search: ${signal}: stopped at line ${lineNo} of ${options.file}, after ${sums.removed} venues removed (${sums.unknown} ids unknown)${inFlight}: running the same file again is safe, a removed id is then unknown\n`);
    process.kill(process.pid, signal);
  };
  for (const signal of STOP_SIGNALS) process.once(signal, onStop);
  for await (const line of createInterface({ input: createReadStream(options.file), crlfDelay: Infinity })) {
    lineNo++;
    read += Buffer.byteLength(line) + 1;
    const id = line.trim();
    if (id === '') continue;
    const where = describeLocation({ file: options.file, line: lineNo });
    const earlier = firstLine.get(id);
    if (earlier !== undefined) {
      sums.repeated++;
      note(`${where}: ${JSON.stringify(id)} repeats line ${earlier}: not sent again`);
      continue;
    }
    firstLine.set(id, lineNo);
    const url = new URL(`${base.pathname}/${encodeURIComponent(id)}`, base);
    let res: Response;
    try {
      sending = lineNo;
      res = await fetch(url, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });
    } catch (err) {
      bar.stop();
      const { why, mayHaveArrived } = fetchFailure(err, base);
      const removal = `the removal of line ${lineNo}`;
      fail(`cannot reach ${base.origin}: ${why} (${sums.removed} venues removed before; ${mayHaveArrived ? `${removal} was sent and may or may not be applied` : `${removal} was not sent`}: running the same file again is safe, a removed id is then unknown)`);
    }
    const answer = (await res.json().catch(() => ({}))) as { code?: string; message?: string };
    sending = undefined;
    if (res.ok) sums.removed++;
    else if (res.status === 404 && answer.code === 'venue_not_found') {
      sums.unknown++;
      note(`${where}: the service holds no venue ${JSON.stringify(id)} (never added, or removed before): counted as unknown`);
    } else {
      bar.stop();
      const hint = res.status === 404 ? notFoundHint(base) : '';
      fail(`${where}: removal of ${JSON.stringify(id)} refused (${res.status}): ${answer.message ?? res.statusText}${hint}; ${sums.removed} venues were removed before${nextStep(res.status, 'a removed id is then unknown')}`);
    }
    bar.update(read, total);
  }
  for (const signal of STOP_SIGNALS) process.off(signal, onStop);
  bar.stop();
  for (const message of notes) process.stderr.write(`venue-search: ${message}\n`);
  const noted = sums.unknown + sums.repeated;
  if (noted > notes.length) process.stderr.write(`venue-search: and ${noted - notes.length} more unknown or repeated ids (the first ${LISTED_PROBLEMS} are listed)\n`);
  if (firstLine.size === 0) process.stderr.write(`venue-search: --file ${options.file} holds no venue id (${total === 0 ? 'it is empty' : 'only blank lines'}): nothing was sent\n`);
  process.stdout.write(`${JSON.stringify(sums, null, 2)}\n`);
}

/**
 * What the operator does after a refusal, by its status, ending the message (audit 65d F5):
 * the service could not take the change now (5xx: a full disk, a compaction's failure, an
 * outage), or the change itself is refused (400, 413, 415: fix it); '' for the others (a
 * wrong URL or token, whose messages say what to fix). `why` says why running the file again is safe.
 */
function nextStep(status: number, why: string): string {
  if (status >= 500) return `: once the service can take changes again (its message says why), run the same file again (safe: ${why})`;
  if (status === 400 || status === 413 || status === 415) return `: fix it, then run the same file again (safe: ${why})`;
  return '';
}

export function registerVenuesCommand(program: Command): void {
  const venues = program.command('venues').description('change the venues of a running service (live data)');
  venues
    .command('upsert')
    .description('insert or replace the venues of an NDJSON file on a running service (PUT /admin/venues)')
    .requiredOption('--server <url>', '(required) the service, e.g. http://127.0.0.1:8080')
    .requiredOption('--file <changes.ndjson>', '(required) venue records, one JSON object a line')
    .option('--token-file <file>', 'file holding the operator token (else VENUE_SEARCH_ADMIN_TOKEN)')
    .option('--batch <n>', 'records per request', parseBatch, 1000)
    .action(async (options: UpsertOptions) => upsertFile(options));
  venues
    .command('check')
    .description('check every record of an NDJSON file as `venues upsert` would have the service check it, sending nothing; exit 1 if any is bad')
    .requiredOption('--file <changes.ndjson>', '(required) venue records, one JSON object a line')
    .option('--batch <n>', 'records per request, as `venues upsert --batch` (a duplicate id is refused within one batch)', parseBatch, 1000)
    .action(async (options: Pick<UpsertOptions, 'file' | 'batch'>) => checkFile(options));
  venues
    .command('remove')
    .description('remove the venues whose ids a file lists, one a line, from a running service (DELETE /admin/venues/{id} each)')
    .requiredOption('--server <url>', '(required) the service, e.g. http://127.0.0.1:8080')
    .requiredOption('--file <ids.txt>', '(required) venue ids, one a line')
    .option('--token-file <file>', 'file holding the operator token (else VENUE_SEARCH_ADMIN_TOKEN)')
    .action(async (options: Omit<UpsertOptions, 'batch'>) => removeFile(options));
}
