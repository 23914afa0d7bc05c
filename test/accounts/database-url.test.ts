/**
 * `--db` URLs: which are refused as unparsable and how they are redacted. The oracle for the
 * accepted ones is the WHATWG URL parser (what `pg` reads them with): a URL this module lets
 * through must parse there to the user, password and host its writer meant.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { databaseUrlProblem, KNOWN_URL_PARAMETERS, redactUrl } from '../../src/accounts/database-url.js';

const tmp = mkdtempSync(join(tmpdir(), 'database-url-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('databaseUrlProblem', () => {
  it('accepts URLs whose "@" is in a connection parameter, with or without credentials', () => {
    const cases: [string, { user: string; password: string; host: string; search: string }][] = [
      ['postgres://db.example.com/venues?application_name=ops@laptop', { user: '', password: '', host: 'db.example.com', search: '?application_name=ops@laptop' }],
      ['postgresql://127.0.0.1:5432/venues?sslmode=require&application_name=a@b', { user: '', password: '', host: '127.0.0.1:5432', search: '?sslmode=require&application_name=a@b' }],
      ['postgres://bob:s3cret@db.example.com/venues?application_name=bob@laptop', { user: 'bob', password: 's3cret', host: 'db.example.com', search: '?application_name=bob@laptop' }],
      ['postgres://bob:p%40ss%2Fw@db.example.com/venues', { user: 'bob', password: 'p%40ss%2Fw', host: 'db.example.com', search: '' }],
    ];
    for (const [url, meant] of cases) {
      expect(databaseUrlProblem(url), url).toBeNull();
      const parsed = new URL(url);
      expect({ user: parsed.username, password: parsed.password, host: parsed.host, search: parsed.search }, url).toEqual(meant);
    }
  });

  it('refuses a raw "/", "?", "#" or "@" in the user info, also before connection parameters', () => {
    for (const url of [
      'postgres://bob:p@ss@db.example.com/venues',
      'postgres://bob:p/ss@db.example.com/venues?sslmode=require',
      'postgres://bob:p?ss@db.example.com/venues',
      'postgres://bob:p#ss@db.example.com/venues?application_name=a@b',
    ]) {
      const problem = databaseUrlProblem(url);
      expect(problem, url).toContain('does not parse: its user or password holds a raw "/", "?", "#" or "@"');
      expect(problem, url).toContain('postgres://bob:***@db.example.com/venues');
      for (const piece of ['p@ss', 'p/ss', 'p?ss', 'p#ss']) expect(problem, url).not.toContain(piece);
    }
  });
});

describe('redactUrl', () => {
  it('masks the password only, and leaves a parameter holding "@" as it is', () => {
    expect(redactUrl('postgres://bob:s3cret@db.example.com/venues?application_name=bob@laptop')).toBe('postgres://bob:***@db.example.com/venues?application_name=bob@laptop');
    expect(redactUrl('postgres://db.example.com:5432/venues?application_name=ops:1@laptop')).toBe('postgres://db.example.com:5432/venues?application_name=ops:1@laptop');
    expect(redactUrl('postgres://bob@db.example.com/venues')).toBe('postgres://bob@db.example.com/venues');
  });
});

describe('connection parameters of a postgres:// URL (audit 64b 5)', () => {
  /**
   * The oracle: node-postgres's own reading of a URL (the ConnectionParameters a connection is
   * made with), compared with its reading of the URL without the parameter. A parameter it
   * acts on changes it; one it ignores does not.
   */
  const ConnectionParameters = createRequire(import.meta.url)('pg/lib/connection-parameters.js') as new (config: { connectionString: string }) => Record<string, unknown>;
  const reading = (url: string) => {
    const p = new ConnectionParameters({ connectionString: url });
    return JSON.stringify({ ...p, password: p['password'] });
  };
  const base = 'postgres://venues@db.example.com:5432/venues';
  const pem = join(tmp, 'ca.pem');
  writeFileSync(pem, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
  /** A value for each known parameter, and the parameters it is read with (`uselibpqcompat` changes what `sslmode=require` means). */
  const values: Record<string, [string, string]> = {
    sslmode: ['verify-full', ''],
    sslrootcert: [pem, ''],
    sslcert: [pem, ''],
    sslkey: [pem, ''],
    ssl: ['true', ''],
    sslnegotiation: ['direct', ''],
    uselibpqcompat: ['true', '&sslmode=require'],
    application_name: ['venue-search', ''],
    fallback_application_name: ['venue-search', ''],
    options: ['-c statement_timeout=5000', ''],
    client_encoding: ['LATIN1', ''],
    statement_timeout: ['5000', ''],
    lock_timeout: ['5000', ''],
    idle_in_transaction_session_timeout: ['5000', ''],
    query_timeout: ['5000', ''],
    host: ['other.example.com', ''],
    port: ['6432', ''],
    user: ['bob', ''],
    password: ['s3cret', ''],
  };

  it('every known parameter is one node-postgres acts on, and passes', () => {
    vi.spyOn(process, 'emitWarning').mockImplementation(() => {}); // pg's notice about sslmode=require
    expect(Object.keys(values).sort()).toEqual([...KNOWN_URL_PARAMETERS].sort());
    for (const [name, [value, companion]] of Object.entries(values)) {
      const url = `${base}?${name}=${encodeURIComponent(value)}${companion}`;
      expect(databaseUrlProblem(url), url).toBeNull();
      expect(reading(url), url).not.toBe(reading(`${base}${companion.replace('&', '?')}`));
    }
    expect(databaseUrlProblem(`${base}?sslmode=verify-full&sslrootcert=${encodeURIComponent(pem)}&application_name=ops@laptop`)).toBeNull();
    vi.restoreAllMocks();
  });

  it('a misspelt or unsupported parameter (which node-postgres would ignore) is refused, naming it and the known ones', () => {
    for (const [url, name] of [
      [`${base}?sslmod=require`, 'sslmod'],
      [`postgresql://bob:s3cret@db.example.com/venues?sslmode=verify-full&connect_timeout=5`, 'connect_timeout'],
      [`${base}?application_name=x&SSLMODE=require`, 'SSLMODE'],
    ] as const) {
      // ignored indeed: the driver reads the URL as if the parameter were not there
      expect(reading(url), url).toBe(reading(url.replace(new RegExp(`[?&]${name}=[^&]*`), '')));
      const problem = databaseUrlProblem(url);
      expect(problem, url).toContain(`unknown connection parameter "${name}"`);
      expect(problem, url).toContain(`the known ones are ${KNOWN_URL_PARAMETERS.join(', ')}`);
      expect(problem, url).not.toContain('s3cret');
    }
    // a file path is not a URL: its name is its own
    expect(databaseUrlProblem('accounts.sqlite?x=1')).toBeNull();
  });
});
