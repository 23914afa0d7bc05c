/**
 * Keys: the public key's permission table (interface section 5, written out by hand here),
 * hashing (only digests in the database), rotation grace periods; and logs that never hold a key.
 */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { rotateAccountKeys } from '../../src/accounts/accounts.js';
import { hashApiKey, maskKeys } from '../../src/accounts/keys.js';
import { publicKeyMayCall } from '../../src/accounts/public-key-scope.js';
import type { LiveVenues } from '../../src/changelog/live-venues.js';
import { createHarness, listenOnLoopback } from './support/harness.js';
import { rawExchange } from './support/raw-http.js';

/** A log stream for the harness's logger, and the lines written to it. */
function capturedLog(): { lines: string[]; stream: Writable } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, stream };
}

describe('public key permissions (interface section 5)', () => {
  it.each([
    ['POST', '/v1/search/', true],
    ['POST', '/v1/search', true],
    ['GET', '/v1/find', true],
    ['GET', '/v1/establishments/basic/abc', true],
    ['GET', '/v1/establishments/advanced/abc', true],
    ['GET', '/v1/establishments/menus/abc', true],
    ['GET', '/v1/widget/', true],
    ['GET', '/v1/widget/app.js', true],
    ['GET', '/v1/business/balances', true],
    ['POST', '/v1/business/balances', true],
    ['GET', '/v1/vocabulary', false],
    ['GET', '/v1/search/', false],
    ['POST', '/v1/find', false],
    ['DELETE', '/v1/establishments/basic/abc', false],
    ['GET', '/v1/establishments/other/abc', false],
    ['GET', '/v2/find', false],
  ] as const)('%s %s -> %s', (method, path, allowed) => {
    expect(publicKeyMayCall(method, path)).toBe(allowed);
  });
});

describe('stored keys and rotation', () => {
  it('the database holds SHA-256 digests only, never a key', async () => {
    const h = await createHarness();
    const acct = await h.open();
    const rows = h.store.db.prepare('SELECT digest FROM api_keys').all() as { digest: Buffer }[];
    const stored = rows.map((r) => r.digest.toString('hex')).sort();
    expect(stored).toEqual([hashApiKey(acct.secretKey), hashApiKey(acct.publicKey)].map((d) => d.toString('hex')).sort());
    // the SHA-256 of "abc" (FIPS 180-2 test vector) proves the digest function
    expect(hashApiKey('abc').toString('hex')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    await h.close();
  });

  it('a second rotation never extends the first old key past its own grace; grace 0 ends it at once', async () => {
    const h = await createHarness();
    const acct = await h.open();
    const status = async (key: string) =>
      (await h.app.inject({ method: 'GET', url: '/v1/business/balances', headers: { 'api-key': key } })).statusCode;
    const t0 = h.clock.nowMs;
    const r1 = await rotateAccountKeys(h.store, acct.accountId, { kinds: ['secret'], graceMs: 60_000, nowMs: t0 });
    const r2 = await rotateAccountKeys(h.store, acct.accountId, { kinds: ['secret'], graceMs: 3_600_000, nowMs: t0 + 30_000 });
    h.clock.nowMs = t0 + 59_000;
    expect(await status(acct.secretKey)).toBe(200);
    h.clock.nowMs = t0 + 61_000;
    expect(await status(acct.secretKey)).toBe(401); // first grace over, not extended by r2
    expect(await status(r1.secretKey!)).toBe(200); // r1's key is in r2's one-hour grace
    expect(await status(r2.secretKey!)).toBe(200);
    await rotateAccountKeys(h.store, acct.accountId, { kinds: ['secret', 'public'], graceMs: 0, nowMs: h.clock.nowMs });
    expect(await status(r1.secretKey!)).toBe(401);
    expect(await status(r2.secretKey!)).toBe(401);
    expect(await status(acct.publicKey)).toBe(401);
    await h.close();
  });
});

describe('logs', () => {
  it('request logs (info level) never contain a key, even one sent in the URL', async () => {
    const { lines, stream } = capturedLog();
    const h = await createHarness({ extra: { logger: { level: 'trace', stream } } });
    const acct = await h.open();
    await h.app.inject({ method: 'GET', url: '/v1/find?q=nando', headers: { 'api-key': acct.secretKey } });
    await h.app.inject({ method: 'GET', url: `/v1/find?q=nando&api_key=${acct.secretKey}`, headers: { API_KEY: acct.publicKey } });
    await h.app.inject({ method: 'GET', url: `/v1/nowhere/${acct.publicKey}` });
    await h.app.inject({ method: 'GET', url: '/v1/find?q=nando', headers: { 'api-key': 'sk_wrong' } });
    // percent-encoded, as a client library may send any character of a URL
    const encodeAll = (text: string) => [...text].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');
    await h.app.inject({ method: 'GET', url: `/v1/find?q=${acct.secretKey.replace('_', '%5f')}` });
    await h.app.inject({ method: 'GET', url: `/v1/find?q=${encodeAll(acct.secretKey)}` });
    await h.app.inject({ method: 'GET', url: `/v1/find?q=%E0%A4%A&key=${encodeAll(acct.publicKey)}` }); // a bad escape beside it
    const log = lines.join('');
    expect(lines.length).toBeGreaterThan(4);
    expect(log).toContain('/v1/find');
    for (const key of [acct.secretKey, acct.publicKey]) {
      expect(log).not.toContain(key.slice(3));
      expect(log).not.toContain(encodeAll(key.slice(3)));
      expect(log).not.toContain(encodeAll(key).slice(9, 30)); // any run of the escaped key after its prefix
    }
    expect(log).not.toContain('sk_wrong');
    await h.close();
  });
});

describe('the operator token never reaches the request log (audit 63b F2)', () => {
  it('an /admin URL is logged without its query; the token anywhere else in a URL, as it is or percent-encoded, is masked', async () => {
    const { lines, stream } = capturedLog();
    // a token with characters a client percent-encodes; the live venues are never reached by these requests
    const token = 'op+tok/en=0123456789abcdef';
    const h = await createHarness({ extra: { logger: { level: 'trace', stream }, admin: { live: {} as LiveVenues, token } } });
    const bearer = { authorization: `Bearer ${token}` };
    const statuses = [
      (await h.app.inject({ method: 'POST', url: `/admin/compact?token=${token}` })).statusCode,
      (await h.app.inject({ method: 'POST', url: `/admin/compact?token=${encodeURIComponent(token)}`, headers: bearer })).statusCode,
      (await h.app.inject({ method: 'DELETE', url: `/Admin//venues/x?token=${token}`, headers: bearer })).statusCode,
      (await h.app.inject({ method: 'GET', url: `/v1/find?q=${token}` })).statusCode,
      (await h.app.inject({ method: 'GET', url: `/v1/find?q=${encodeURIComponent(token)}` })).statusCode,
    ];
    expect(statuses).toEqual([401, 400, 404, 401, 401]);
    const log = lines.join('');
    expect(log).toContain('"url":"/admin/compact?[redacted]"');
    expect(log).toContain('"url":"/Admin//venues/x?[redacted]"');
    expect(log).toContain('"url":"/v1/find?q=[redacted]"');
    for (const secret of [token, encodeURIComponent(token), token.slice(7)]) expect(log).not.toContain(secret);
    await h.close();
  });

  it('the token is masked in any percent-encoding a client writes (audit 64a F11): Python quote(), lower-case hex, some characters escaped, all escaped', async () => {
    const { lines, stream } = capturedLog();
    // a token as docs/updates.md makes one (`head -c 32 /dev/urandom | base64`): it holds / + =
    const token = 'P3Zri1HLwCbIcD2go16Wx/uZSJZ+H6jMnptDOcxIJ8g=';
    const hex = (c: string) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;
    // each encoding written out by hand, not by the code under test
    const encodings = {
      // urllib.parse.quote(token) (safe='/'): + and = escaped, / as it is
      pythonQuote: 'P3Zri1HLwCbIcD2go16Wx/uZSJZ%2BH6jMnptDOcxIJ8g%3D',
      lowerHex: 'P3Zri1HLwCbIcD2go16Wx%2fuZSJZ%2bH6jMnptDOcxIJ8g%3d',
      onlySlash: 'P3Zri1HLwCbIcD2go16Wx%2FuZSJZ+H6jMnptDOcxIJ8g=',
      everyCharacter: [...token].map(hex).join(''),
      mixedCase: 'P3Zri1HLwCbIcD2go16Wx%2FuZSJZ%2bH6jMnptDOcxIJ8g%3D',
    };
    const h = await createHarness({ extra: { logger: { level: 'trace', stream }, admin: { live: {} as LiveVenues, token } } });
    const port = await listenOnLoopback(h);
    for (const [name, encoded] of Object.entries(encodings)) {
      // a typo'd admin path (404: its query is kept) and another route's parameter
      for (const target of [`/admn/venues?token=${encoded}`, `/v1/find?q=${encoded}&x=1`]) {
        const res = await rawExchange(port, `GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
        expect([name, res.status]).toEqual([name, target.startsWith('/admn') ? 404 : 401]);
      }
    }
    const log = lines.join('');
    expect(log).toContain('"url":"/admn/venues?token=[redacted]"');
    expect(log).toContain('"url":"/v1/find?q=[redacted]&x=1"');
    for (const [name, encoded] of Object.entries(encodings)) expect([name, log.includes(encoded)]).toEqual([name, false]);
    // no 12-character run of the token, raw, survives anywhere in the log
    for (let i = 0; i + 12 <= token.length; i += 4) expect(log).not.toContain(token.slice(i, i + 12));
    await h.close();
  });
});

describe('the operator token without its base64 padding never reaches the request log (audit 69b note)', () => {
  it('a URL holding the token less its trailing "=" (the whole secret) is logged masked, as the full token is', async () => {
    const { lines, stream } = capturedLog();
    // as docs/updates.md makes one (`head -c 32 /dev/urandom | base64`): 43 characters of secret and "="
    const token = 'P3Zri1HLwCbIcD2go16Wx/uZSJZ+H6jMnptDOcxIJ8g=';
    const unpadded = 'P3Zri1HLwCbIcD2go16Wx/uZSJZ+H6jMnptDOcxIJ8g';
    const h = await createHarness({ extra: { logger: { level: 'trace', stream }, admin: { live: {} as LiveVenues, token } } });
    const port = await listenOnLoopback(h);
    for (const target of [`/v1/find?q=${unpadded}&x=1`, `/v1/find?q=${encodeURIComponent(unpadded)}`, `/v1/find?q=${encodeURIComponent(token)}`]) {
      await rawExchange(port, `GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    }
    const log = lines.join('');
    expect(log).toContain('"url":"/v1/find?q=[redacted]&x=1"');
    // no 12-character run of the secret survives anywhere in the log
    for (let i = 0; i + 12 <= unpadded.length; i += 4) expect(log).not.toContain(unpadded.slice(i, i + 12));
    await h.close();
  });
});

describe('a secret percent-encoded twice or three times never reaches the request log (audit 65a F6)', () => {
  it('the operator token and an sk_ key escaped, then escaped again (%2561...), are masked in the log of real requests', async () => {
    const { lines, stream } = capturedLog();
    const token = 'P3Zri1HLwCbIcD2go16Wx/uZSJZ+H6jMnptDOcxIJ8g=';
    const h = await createHarness({ extra: { logger: { level: 'trace', stream }, admin: { live: {} as LiveVenues, token } } });
    const acct = await h.open();
    // every character escaped, then the `%` of each escape escaped again (`%2550`), as a
    // client escaping an already escaped value writes it; built here, not by the code under test
    const once = (text: string) => [...text].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`).join('');
    const again = (escaped: string) => escaped.replaceAll('%', '%25');
    const port = await listenOnLoopback(h);
    const targets = [
      `/v1/find?q=${again(once(token))}&x=1`,
      `/v1/find?q=${again(again(once(token)))}`,
      `/v1/find?key=${again(once(acct.secretKey))}`,
      `/v1/nowhere/${again(again(once(acct.secretKey)))}`,
      // only some characters, the `_` and `/` escaped twice
      `/v1/find?q=${token.replace('/', '%252F')}&key=${acct.secretKey.replace('_', '%255F')}`,
    ];
    for (const target of targets) await rawExchange(port, `GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    const urls = lines.map((line) => (JSON.parse(line) as { req?: { url?: string } }).req?.url).filter((u): u is string => u !== undefined);
    expect(urls.length).toBe(targets.length);
    // the oracle: each logged URL decoded again and again by the platform's decoder
    for (const url of urls) {
      let text = url;
      for (let round = 0; round <= 3; round++) {
        expect([url, text.includes(token.slice(0, 12)) || text.includes(acct.secretKey.slice(3, 15))]).toEqual([url, false]);
        text = decodeURIComponent(text.replaceAll(/%(?![0-9A-Fa-f]{2})/g, '%25'));
      }
    }
    expect(urls[0]).toContain('[redacted]&x=1');
    await h.close();
  });
});

describe('error messages never echo a key (docs/security.md), wherever a client put it', () => {
  it('a key in a path, a parameter name or value, a body field, a header value, or the widget address comes back masked', async () => {
    const h = await createHarness({ extra: { widget: {} } });
    const acct = await h.open();
    const key = { 'api-key': acct.secretKey };
    const body = (mode: string) => JSON.stringify({ locations: [{ lat: 51.5, lon: -0.12 }], mode: { mode, maxDistance: 500 } });
    const cases: { method: 'GET' | 'POST'; url: string; headers?: Record<string, string>; payload?: string }[] = [
      { method: 'GET', url: `/v1/establishments/basic/${acct.secretKey}`, headers: key },
      { method: 'GET', url: `/v1/find?q=costa&location=${acct.secretKey}`, headers: key },
      { method: 'GET', url: `/v1/find?q=costa&${acct.publicKey}=1`, headers: key },
      { method: 'POST', url: '/v1/search/', headers: { ...key, 'content-type': 'application/json' }, payload: body(acct.secretKey) },
      { method: 'POST', url: '/v1/search/', headers: { ...key, 'content-type': 'application/json', 'content-encoding': acct.secretKey }, payload: body('POINT') },
      { method: 'GET', url: `/v1/widget/assets/${acct.secretKey}.js` },
      { method: 'GET', url: `/v1/widget/?${acct.secretKey}` },
      { method: 'GET', url: `/v1/widget/?${encodeURIComponent(`key=${acct.secretKey}`)}` },
      // glued to the word before it (audit 60a: `\b` let these through whole)
      { method: 'GET', url: `/v1/establishments/basic/osm_${acct.secretKey}`, headers: key },
      { method: 'GET', url: `/v1/establishments/basic/abc${acct.publicKey}`, headers: key },
      { method: 'GET', url: `/v1/find?q=x&limit=1${acct.secretKey}`, headers: key },
      { method: 'GET', url: `/v1/find?q=x&location=zzsoho_${acct.secretKey}`, headers: key },
      { method: 'GET', url: `/v1/widget/?x${acct.secretKey}=1` },
    ];
    for (const c of cases) {
      const res = await h.app.inject(c);
      const where = `${c.method} ${c.url.replace(acct.secretKey, '<sk>').replace(acct.publicKey, '<pk>')}`;
      expect(res.statusCode, where).toBeGreaterThanOrEqual(400);
      // the refusal still says what was wrong, with the key's kind
      expect(res.body, where).toMatch(/(sk|pk)_\[redacted\]/);
      for (const secret of [acct.secretKey, acct.publicKey, acct.secretKey.slice(3), acct.publicKey.slice(3)]) expect(res.body, where).not.toContain(secret);
    }
    await h.close();
  });

  it('words that merely hold sk_ or pk_ are left as they are; a token starting with one is masked', () => {
    for (const text of ['desk_lamp', 'risk_level', 'the kiosk_2 stand', 'sk_', 'a pk_ alone', 'Whisk_and_Whistle_Kitchen', 'task_management_system_v2', 'location "Whisk_and_Whistle_Kitchen_of_Old_Bermondsey"']) {
      expect(maskKeys(text), text).toBe(text);
    }
    expect(maskKeys('a pk_short token')).toBe('a pk_[redacted] token');
  });
});
