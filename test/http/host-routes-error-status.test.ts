/**
 * Audit 74d F1: an app that adds its own routes to buildApp's instance, with its own error
 * handler written as fastify's convention has it (`err.statusCode ?? 500`), answered a client's
 * malformed JSON with a 500: our refusals carried their status as `status` only. The oracle:
 * the statuses docs/http.md's error catalogue gives those refusals, read by the host's handler.
 */
import { describe, expect, it } from 'vitest';
import { SqliteAccountsStore } from '../../src/accounts/sqlite-accounts-store.js';
import { buildApp } from '../../src/http/app.js';
import { createFixtureEngine } from './support/fixture-engine.js';

describe("an embedding app's own error handler reads our refusals' statuses (audit 74d F1)", () => {
  it('a malformed JSON body is a 400 and a compressed body a 415 on a host route, as on ours', async () => {
    const accounts = new SqliteAccountsStore(':memory:');
    const app = await buildApp({ engine: await createFixtureEngine(), accounts });
    await app.register(async (host) => {
      host.setErrorHandler((err: Error & { statusCode?: number }, _request, reply) => reply.code(err.statusCode ?? 500).send({ hostError: true, message: err.message }));
      host.post('/host/orders', async (request) => ({ got: request.body }));
    });
    const json = { 'content-type': 'application/json' };
    const malformed = await app.inject({ method: 'POST', url: '/host/orders', headers: json, payload: '{bad' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ hostError: true, message: expect.stringMatching(/^the body is not valid JSON: /) });
    const compressed = await app.inject({ method: 'POST', url: '/host/orders', headers: { ...json, 'content-encoding': 'gzip' }, payload: '{}' });
    expect(compressed.statusCode).toBe(415);
    expect((compressed.json() as { message: string }).message).toBe('Content-Encoding "gzip" is not supported; send the body uncompressed');
    const fine = await app.inject({ method: 'POST', url: '/host/orders', headers: json, payload: '{"n":1}' });
    expect({ status: fine.statusCode, body: fine.json() as unknown }).toEqual({ status: 200, body: { got: { n: 1 } } });
    await app.close();
    await accounts.close();
  });
});
