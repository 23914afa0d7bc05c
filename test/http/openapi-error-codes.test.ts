/**
 * Audit 70a F3: every error response of the OpenAPI document names, in its description, the
 * `code`s it can carry ("Codes: `a`, `b`."), since `ErrorEnvelope.code` has no enum and the
 * description is where a generated client or gateway finds them.
 * Oracles: the catalogue HTTP_ERRORS (the status every HttpError takes from its code), the
 * list of operator-only codes in docs/http.md (the /admin routes, outside the document), and
 * live answers whose `code` must be named under the status they came with.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HTTP_ERRORS } from '../../src/http/http-errors.js';
import { createHarness, type Harness } from './support/harness.js';

/** docs/http.md "Errors": the codes only the `/admin` routes answer. */
const OPERATOR_ONLY = new Set(['missing_admin_token', 'invalid_admin_token', 'invalid_venue', 'duplicate_id']);

type Responses = Record<string, { description: string }>;
let h: Harness;
let operations: Array<{ id: string; responses: Responses }>;
beforeAll(async () => {
  h = await createHarness();
  const document = (await h.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json() as { paths: Record<string, Record<string, { operationId: string; responses: Responses }>> };
  operations = Object.values(document.paths).flatMap((item) => Object.values(item).map((op) => ({ id: op.operationId, responses: op.responses })));
});
afterAll(async () => {
  await h.close();
});

/** The codes a description names in its closing "Codes: ..." sentence. */
function namedCodes(description: string): string[] {
  const list = /Codes: ((?:`[a-z_]+`(?:, )?)+)\.$/.exec(description)?.[1];
  return list === undefined ? [] : [...list.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!);
}

function statusFits(key: string, status: number): boolean {
  return /^\dxx$/i.test(key) ? String(status)[0] === key[0] : String(status) === key;
}

describe('the error responses name their codes', () => {
  it('every error entry ends with its codes, each a catalogue code of that status; together they are every code of the API', () => {
    const named = new Set<string>();
    for (const { id, responses } of operations) {
      for (const [key, response] of Object.entries(responses)) {
        if (key.startsWith('2')) continue;
        const codes = namedCodes(response.description);
        expect({ id, key, named: codes.length > 0 }).toEqual({ id, key, named: true });
        for (const code of codes) {
          const entry = (HTTP_ERRORS as Record<string, { status: number }>)[code];
          expect({ id, key, code, fits: entry !== undefined && statusFits(key, entry.status) }).toEqual({ id, key, code, fits: true });
          named.add(code);
        }
      }
    }
    const apiCodes = Object.keys(HTTP_ERRORS).filter((code) => !OPERATOR_ONLY.has(code));
    expect([...named].sort()).toEqual(apiCodes.sort());
  });

  it("a 401's code, whichever the key problem, is named by that operation's 401 description", async () => {
    const acct = await h.open('Enterprise');
    const cases: Array<[Record<string, string>, string]> = [
      [{}, 'missing_api_key'],
      [{ 'api-key': `sk_${'0'.repeat(40)}` }, 'invalid_api_key'],
      [{ 'api-key': acct.secretKey, api_key: acct.publicKey }, 'conflicting_api_keys'],
    ];
    const find = operations.find((op) => op.id === 'findVenues')!;
    for (const [headers, code] of cases) {
      const res = await h.app.inject({ method: 'GET', url: '/v1/find?q=pub', headers });
      expect([res.statusCode, (res.json() as { code: string }).code]).toEqual([401, code]);
      expect(namedCodes(find.responses['401']!.description)).toContain(code);
    }
  });

  it('a GET with a body refused for its encoding or charset answers 415, which that operation documents (audit 70f F5)', async () => {
    const acct = await h.open('Enterprise');
    const cases: Array<Record<string, string>> = [
      { 'api-key': acct.secretKey, 'content-encoding': 'gzip', 'content-type': 'application/json' },
      { 'api-key': acct.secretKey, 'content-type': 'text/plain; charset=latin1' },
    ];
    const find = operations.find((op) => op.id === 'findVenues')!;
    for (const headers of cases) {
      const res = await h.app.inject({ method: 'GET', url: '/v1/find?q=pub', headers, payload: '{}' });
      expect([res.statusCode, (res.json() as { code: string }).code]).toEqual([415, 'unsupported_media_type']);
      const documented = Object.entries(find.responses).filter(([key]) => statusFits(key, 415));
      expect(documented.length, 'a 415 or 4XX entry').toBeGreaterThan(0);
      expect(documented.some(([, r]) => namedCodes(r.description).includes('unsupported_media_type'))).toBe(true);
    }
  });
});
