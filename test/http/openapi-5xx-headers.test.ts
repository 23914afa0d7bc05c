/**
 * Audit 70a F4: a 503 answered at the charge (the accounts database out of reach) was counted
 * by the rate limiter first, so it carries the rate-limit headers; the document's `5XX`
 * response must list them (optional: a 503 while shutting down is answered before counting).
 * Oracle: the headers the service actually sent, checked against the document with the strict
 * ajv 2020 checker (support/openapi-check.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenApiChecker } from './support/openapi-check.js';
import { createHarness, type Harness } from './support/harness.js';

const RATE_LIMIT_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'RateLimit', 'RateLimit-Policy'];

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

describe('the 5XX response documents the headers a counted 503 carries', () => {
  it('a charge on a busy accounts database: 503 with the rate-limit headers, each documented and valid', async () => {
    const document = (await h.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json() as Record<string, unknown> & {
      paths: Record<string, Record<string, { operationId: string; responses: Record<string, { headers?: Record<string, { required?: boolean }> }> }>>;
    };
    const acct = await h.open('Enterprise');
    // as SQLite reports a file another process holds locked past the busy wait
    h.accounts.charge = () => Promise.reject(Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }));
    const res = await h.app.inject({ method: 'GET', url: '/v1/find?q=pub', headers: { 'api-key': acct.secretKey } });
    expect([res.statusCode, (res.json() as { code: string }).code]).toEqual([503, 'service_unavailable']);
    const sent = RATE_LIMIT_HEADERS.filter((name) => res.headers[name.toLowerCase()] !== undefined);
    expect(sent).toEqual(RATE_LIMIT_HEADERS);
    const responses = document.paths['/v1/find']!['get']!.responses;
    const documented = responses[Object.keys(responses).find((key) => key.toUpperCase() === '5XX')!]!.headers ?? {};
    for (const name of RATE_LIMIT_HEADERS) expect({ name, documented: name in documented, required: documented[name]?.required ?? false }).toEqual({ name, documented: true, required: false });
    // each sent value valid against its documented schema (strict ajv 2020)
    const checker = new OpenApiChecker(document);
    expect(checker.compileAll()).toBeGreaterThan(100);
    checker.checkResponse('GET', '/v1/find?q=pub', res);
  });
});
