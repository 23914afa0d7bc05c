/**
 * The operator commands, run in-process through commander: `accounts create`, `accounts
 * topup`, `keys rotate`. Oracle: the printed keys are used against a fresh app on the same
 * database file (they must authenticate), and GBP amounts are converted by hand.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { registerServiceCommands } from '../../src/cli/service-commands.js';
import { CLOCK_FILE_ENV } from '../../src/cli/service-clock.js';
import { SqliteAccountsStore } from '../../src/accounts/sqlite-accounts-store.js';
import { createHarness, FakeClock } from './support/harness.js';
import { FIXTURES_PATH } from '../search/support.js';
import { runServiceCommand } from './support/run-service-command.js';
import { CLI_MAIN } from '../support/cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'venue-search-cli-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

const run = runServiceCommand;

/**
 * The service commands on a commander program whose process.exit throws `exit <code>` (so a
 * command that stops can be awaited) and whose stderr is captured (restored after each test).
 */
function stoppingCommands() {
  const exit = vi.spyOn(process, 'exit').mockImplementation(((code: number) => {
    throw new Error(`exit ${code}`);
  }) as never);
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  const program = new Command('venue-search').exitOverride();
  registerServiceCommands(program);
  return { exit, stderr, program };
}

describe('--db help (audit 64b 6)', () => {
  it('every command taking --db shows a PostgreSQL URL without a password, and where the password goes', () => {
    const program = new Command('venue-search');
    registerServiceCommands(program);
    const withDb: string[] = [];
    const visit = (command: Command, path: string) => {
      for (const sub of command.commands) visit(sub, `${path} ${sub.name()}`.trim());
      const db = command.options.find((o) => o.long === '--db');
      if (db === undefined) return;
      withDb.push(path);
      const help = command.helpInformation().replace(/\s+/g, ' ');
      expect(help, path).toContain('postgres://user@host:port/database (password: PGPASSWORD)');
      expect(help, path).not.toContain(':password@');
    };
    visit(program, '');
    expect(withDb.sort()).toEqual(['accounts create', 'accounts origins', 'accounts topup', 'keys rotate', 'serve']);
  });
});

describe('operator commands', () => {
  it('accounts create prints working keys; topup adds exact micros; keys rotate keeps the old key for the grace period', async () => {
    const db = join(tmp, 'ops.sqlite');
    const created = (await run('accounts', 'create', '--plan', 'StartUp', '--db', db)) as Record<string, string | number>;
    expect(created).toMatchObject({ plan: 'StartUp', balanceMicros: 10_000_000 });
    expect(created['secretKey']).toMatch(/^sk_[A-Za-z0-9_-]{43}$/);
    expect(created['publicKey']).toMatch(/^pk_[A-Za-z0-9_-]{43}$/);
    const accountId = String(created['accountId']);

    const topped = (await run('accounts', 'topup', accountId, '12.345678', '--db', db)) as Record<string, number>;
    expect(topped['toppedUpMicros']).toBe(12_345_678);
    expect(topped['balanceMicros']).toBe(22_345_678);

    const rotated = (await run('keys', 'rotate', accountId, '--only', 'secret', '--grace-hours', '1', '--db', db)) as Record<string, string>;
    expect(rotated['secretKey']).toMatch(/^sk_/);
    expect(rotated['publicKey']).toBeUndefined();

    const clock = new FakeClock(Date.now());
    const h = await createHarness({ dbPath: db, clock });
    const status = async (key: string) =>
      (await h.app.inject({ method: 'GET', url: '/v1/business/balances', headers: { 'api-key': key } })).statusCode;
    expect(await status(String(created['secretKey']))).toBe(200); // old key, inside the grace hour
    expect(await status(rotated['secretKey']!)).toBe(200);
    expect(await status(String(created['publicKey']))).toBe(200); // public key was not rotated
    clock.advance(3_600_000 + 1000);
    expect(await status(String(created['secretKey']))).toBe(401); // grace over
    expect(await status(rotated['secretKey']!)).toBe(200);
    await h.close();
  });

  it('follow the service clock file, as serve does: account creation, top-up and key grace periods', async () => {
    const db = join(tmp, 'clocked.sqlite');
    const clockFile = join(tmp, 'clock');
    const t = Date.UTC(2030, 0, 1, 0, 0, 0);
    writeFileSync(clockFile, String(t));
    vi.stubEnv(CLOCK_FILE_ENV, clockFile);
    try {
      const created = (await run('accounts', 'create', '--plan', 'StartUp', '--db', db)) as Record<string, string>;
      const accountId = created['accountId']!;
      writeFileSync(clockFile, String(t + 60_000));
      await run('accounts', 'topup', accountId, '1', '--db', db);
      writeFileSync(clockFile, String(t + 120_000));
      const rotated = (await run('keys', 'rotate', accountId, '--grace-hours', '2', '--db', db)) as Record<string, string>;
      expect(rotated['previousKeysExpireAt']).toBe(new Date(t + 120_000 + 2 * 3_600_000).toISOString());
      const store = new SqliteAccountsStore(db);
      try {
        expect((await store.getAccount(accountId))!.createdAtMs).toBe(t);
        // the opening credit and the top-up, read from the ledger table itself
        const times = store.db.prepare('SELECT at_ms FROM ledger WHERE account_id = ? ORDER BY seq').all(accountId) as Array<{ at_ms: number }>;
        expect(times.map((row) => row.at_ms)).toEqual([t, t + 60_000]);
      } finally {
        await store.close();
      }
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('topup rejects a float-looking or negative amount and an unknown account with exit code 1', async () => {
    const db = join(tmp, 'bad.sqlite');
    await run('accounts', 'create', '--plan', 'StartUp', '--db', db); // the database exists; the account does not
    const { exit, stderr, program } = stoppingCommands();
    await expect(program.parseAsync(['accounts', 'topup', 'acct_x', '1e3', '--db', db], { from: 'user' })).rejects.toThrow('exit 1');
    await expect(program.parseAsync(['accounts', 'topup', 'acct_x', '-5', '--db', db], { from: 'user' })).rejects.toThrow();
    await expect(program.parseAsync(['accounts', 'topup', 'acct_nobody', '5', '--db', db], { from: 'user' })).rejects.toThrow('exit 1');
    await expect(program.parseAsync(['accounts', 'topup', 'acct_x', '1000000000', '--db', db], { from: 'user' })).rejects.toThrow('exit 1');
    expect(exit).toHaveBeenCalledWith(1);
    const said = stderr.mock.calls.map((c) => String(c[0])).join('');
    expect(said).toContain('no account "acct_nobody"');
    // the cap is named, not a decimals rule the amount does not break
    expect(said).toContain('amount must be at most 999,999,999 GBP; got "1000000000"');
    // the store was closed before the command stopped: SQLite left no write-ahead log behind
    expect(existsSync(`${db}-wal`)).toBe(false);
  });

  it('a mistyped --db is refused for commands on an existing account (no empty database is made), and an unsupported URL is named without its password', async () => {
    const { exit, stderr, program } = stoppingCommands();
    const typo = join(tmp, 'no-such-accounts.sqlite');
    for (const args of [
      ['accounts', 'topup', 'acct_x', '5'],
      ['accounts', 'origins', 'acct_x'],
      ['keys', 'rotate', 'acct_x'],
    ]) {
      await expect(program.parseAsync([...args, '--db', typo], { from: 'user' })).rejects.toThrow('exit 1');
    }
    expect(readdirSync(tmp).filter((f) => f.startsWith('no-such-accounts'))).toEqual([]);
    await expect(program.parseAsync(['accounts', 'create', '--plan', 'StartUp', '--db', 'mysql://ops:hunter2@db.example.com/accounts'], { from: 'user' })).rejects.toThrow('exit 1');
    expect(exit).toHaveBeenCalledWith(1);
    const printed = stderr.mock.calls.map((c) => String(c[0])).join('');
    expect(printed.match(/no accounts database at .*no-such-accounts\.sqlite/g)).toHaveLength(3);
    expect(printed).toContain('--db mysql://ops:***@db.example.com/accounts is not a database this service can use');
    expect(printed).not.toContain('hunter2');
    // a password with raw "@", "/" and "#": refused as it is written, no part of it printed
    await expect(program.parseAsync(['accounts', 'create', '--plan', 'StartUp', '--db', 'postgres://bob:p@ss/w:rd#1@127.0.0.1:1/venues'], { from: 'user' })).rejects.toThrow('exit 1');
    const after = stderr.mock.calls.map((c) => String(c[0])).join('');
    expect(after).toContain('--db postgres://bob:***@127.0.0.1:1/venues does not parse: its user or password holds a raw "/", "?", "#" or "@"; percent-encode them');
    for (const piece of ['p@ss', 'ss/w', 'rd#1']) expect(after).not.toContain(piece);
    // a database file whose folder is missing: accounts create says it as serve does, not SQLite's "unable to open database file" (audit 73d F6)
    stderr.mockClear();
    const noFolder = join(tmp, 'no-folder', 'accounts.sqlite');
    await expect(program.parseAsync(['accounts', 'create', '--plan', 'StartUp', '--db', noFolder], { from: 'user' })).rejects.toThrow('exit 1');
    expect(stderr.mock.calls.map((c) => String(c[0])).join('')).toBe(`venue-search: --db: cannot make the accounts database ${noFolder}: its folder ${join(tmp, 'no-folder')} does not exist\n`);
    // a URL of another kind is named so by every command, not taken for a file's name (audit 73d F6)
    for (const args of [
      ['accounts', 'topup', 'acct_x', '5'],
      ['serve', '--data', FIXTURES_PATH],
    ]) {
      stderr.mockClear();
      await expect(program.parseAsync([...args, '--db', 'mysql://x'], { from: 'user' })).rejects.toThrow('exit 1');
      expect(stderr.mock.calls.map((c) => String(c[0])).join(''), args.join(' ')).toBe(
        'venue-search: --db mysql://x is not a database this service can use: give an SQLite file, or a postgres:// URL\n',
      );
    }
  });

  it('serve refuses --engine-threads past 64 before loading anything, as --workers past 256 (audit 73d F4: 500 made 511 threads and 2.4 GB)', async () => {
    const { stderr, program } = stoppingCommands();
    for (const [value, said] of [
      ['500', `error: option '--engine-threads <n>' argument '500' is invalid. must be an integer 0..64; got "500"`],
      ['65', `error: option '--engine-threads <n>' argument '65' is invalid. must be an integer 0..64; got "65"`],
      ['-1', `error: option '--engine-threads <n>' argument '-1' is invalid. must be an integer 0..64; got "-1"`],
    ]) {
      stderr.mockClear();
      await expect(program.parseAsync(['serve', '--data', FIXTURES_PATH, '--engine-threads', value!], { from: 'user' })).rejects.toThrow();
      expect(stderr.mock.calls.map((c) => String(c[0])).join('')).toBe(`${said!}\n`);
    }
  });

  it('serve refuses a --connection-timeout that is not whole seconds 1..600, naming the value', async () => {
    const { stderr, program } = stoppingCommands();
    for (const value of ['0', '601', '1.5', '-3', 'ten']) {
      stderr.mockClear();
      await expect(program.parseAsync(['serve', '--data', FIXTURES_PATH, '--connection-timeout', value], { from: 'user' })).rejects.toThrow();
      expect(stderr.mock.calls.map((c) => String(c[0])).join('')).toBe(
        `error: option '--connection-timeout <seconds>' argument '${value}' is invalid. must be a whole number of seconds 1..600; got "${value}"\n`,
      );
    }
  });

  it('serve says a port in use before loading the data, in words (audit 73d F6: "bind EADDRINUSE" once the data had loaded)', async () => {
    const { createServer } = await import('node:net');
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as { port: number }).port;
    try {
      const { stderr, program } = stoppingCommands();
      // a --data that would take long to load is never read: the refusal comes first
      await expect(program.parseAsync(['serve', '--data', FIXTURES_PATH, '--port', String(port), '--workers', '1', '--db', join(tmp, 'port.sqlite')], { from: 'user' })).rejects.toThrow('exit 1');
      expect(stderr.mock.calls.map((c) => String(c[0])).join('')).toBe(
        `venue-search: cannot listen on 127.0.0.1:${port}: the port is in use by another program (another serve?): stop it, or give another --port\n`,
      );
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });

  it('serve stops with exit code 1 and a message naming the file for a missing file, a directory, a bad record, malformed JSON and a CSV (not a venues file)', async () => {
    const { writeFileSync, mkdirSync } = await import('node:fs');
    const bad = join(tmp, 'bad.ndjson');
    writeFileSync(bad, '{"id":"x","name":"A"}\n');
    const malformed = join(tmp, 'malformed.ndjson');
    writeFileSync(malformed, '{"id":"a","name":"A","location":{"type":"Point","coordinates":[51.5,-0.1]}}\nnot json\n');
    // walk-through 32, fault 4: a CSV given as --data (the GeoNames places file's first lines)
    const csv = join(tmp, 'gb_places_geonames.csv');
    writeFileSync(csv, 'name,lat,lon,country\nAbbey Dore,51.96667,-2.9,GB\n');
    const dir = join(tmp, 'dir.ndjson');
    mkdirSync(dir, { recursive: true });
    // audit 59e: an empty file was served as 0 venues (an export that failed)
    const empty = join(tmp, 'empty.vsnap');
    writeFileSync(empty, '');
    // audit 60a: a file of blank lines, an empty array or FeatureCollection was served as 0 venues
    const noRecords = [
      ['blank.ndjson', '\n\n'],
      ['array.json', '[]\n'],
      ['collection.geojson', '{"type":"FeatureCollection","features":[]}\n'],
    ].map(([name, text]) => {
      writeFileSync(join(tmp, name!), text!);
      return [join(tmp, name!), new RegExp(`${name!.replace('.', '\\.')} holds no venue records \\(an empty data set is a mistake, not one to serve; a live-data service, --admin-token-file, starts from one\\)`)] as [string, RegExp];
    });
    const cases: [string, RegExp][] = [
      [join(tmp, 'missing.ndjson'), /data file not found: .*missing\.ndjson/],
      [dir, /must be a file; .*dir\.ndjson/],
      [empty, /empty\.vsnap is empty: it holds no venue records \(an empty file is a mistake, not a data set\)/],
      ...noRecords,
      [bad, /bad\.ndjson.*line 1.*"x".*location/],
      [malformed, /cannot load .*malformed\.ndjson: line 2: malformed JSON/],
      [csv, /cannot load .*gb_places_geonames\.csv: line 1: not a venues file \(NDJSON, a JSON array or GeoJSON\), line 1 is not JSON; a raw source is imported first \(`venue-search import osm\|fhrs\|overture`\): /],
    ];
    for (const [file, message] of cases) {
      vi.spyOn(process, 'exit').mockImplementation(((code: number) => {
        throw new Error(`exit ${code}`);
      }) as never);
      const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
      const program = new Command('venue-search').exitOverride();
      registerServiceCommands(program);
      await expect(program.parseAsync(['serve', '--data', file, '--db', join(tmp, 'serve.sqlite'), '--workers', '1'], { from: 'user' })).rejects.toThrow('exit 1');
      expect(stderr.mock.calls.map((c) => String(c[0])).join('')).toMatch(message);
      vi.restoreAllMocks();
    }
  });
});

describe('a data file the service may not read', () => {
  /** Runs the CLI as another user than the file's owner: `nobody` under root (root reads anything), else this user on a file of mode 000. */
  function unreadable(): { file: string; run: (args: string[]) => { status: number | null; stderr: string } } {
    const dir = mkdtempSync(join(tmpdir(), 'venue-search-unreadable-'));
    chmodSync(dir, 0o777);
    const file = join(dir, 'venues.ndjson');
    writeFileSync(file, '{"id":"a:1","name":"A","location":{"type":"Point","coordinates":[51.5,-0.1]}}\n');
    const root = process.getuid?.() === 0;
    chmodSync(file, root ? 0o600 : 0o000);
    if (root) chownSync(file, 0, 0);
    const asUser = root ? { uid: Number(execFileSync('id', ['-u', 'nobody'], { encoding: 'utf8' }).trim()), gid: Number(execFileSync('id', ['-g', 'nobody'], { encoding: 'utf8' }).trim()) } : {};
    return {
      file,
      run: (args) => {
        const r = spawnSync(process.execPath, [CLI_MAIN, ...args], { encoding: 'utf8', ...asUser, env: { ...process.env, HOME: dir, TMPDIR: dir }, timeout: 60_000 });
        return { status: r.status, stderr: r.stderr };
      },
    };
  }

  it('serve and snapshot stop with one line naming the file and "permission denied", no stack trace', () => {
    const { file, run } = unreadable();
    const dir = join(file, '..');
    for (const args of [
      ['serve', '--data', file, '--db', join(dir, 'accounts.sqlite'), '--workers', '1', '--port', '0'],
      ['serve', '--data', file, '--db', join(dir, 'accounts.sqlite'), '--workers', '1', '--engine-threads', '1', '--port', '0'],
      ['snapshot', '--data', file, '--out', join(dir, 'out.vsnap')],
    ]) {
      const { status, stderr } = run(args);
      expect(status, args.join(' ')).toBe(1);
      expect(stderr.trim().split('\n'), args.join(' ')).toEqual([`venue-search: cannot read --data ${file}: not readable: permission denied`]);
    }
  });
});
