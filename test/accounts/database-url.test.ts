/**
 * `--db` URLs: which are refused as unparsable and how they are redacted. The oracle for the
 * accepted ones is the WHATWG URL parser (what `pg` reads them with): a URL this module lets
 * through must parse there to the user, password and host its writer meant.
 */
import { describe, expect, it } from 'vitest';
import { databaseUrlProblem, redactUrl } from '../../src/accounts/database-url.js';

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
