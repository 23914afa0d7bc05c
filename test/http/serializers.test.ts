/**
 * sharedRefSerializers (src/http/serializers.ts): the error entries that are an envelope's
 * `$ref` plus documentation share one compiled serializer. Oracle: fast-json-stringify called
 * directly on the referenced schema (the bytes each route answers), and the identity of the
 * compiled functions (shared only where the schema is the `$ref` plus description/headers).
 */
import Fastify from 'fastify';
import fastJson from 'fast-json-stringify';
import { describe, expect, it } from 'vitest';
import { sharedRefSerializers } from '../../src/http/serializers.js';

const ENVELOPE = {
  $id: 'Envelope' as const,
  type: 'object' as const,
  required: ['error'],
  properties: { error: { type: 'object' as const, required: ['code'], properties: { code: { type: 'string' as const }, param: { type: 'string' as const } } } },
};

const BODY = { error: { code: 'invalid_request', param: 'lat', secret: 'dropped by the schema' }, extra: 1 };

describe('sharedRefSerializers', () => {
  it('answers every $ref-only error entry with the bytes fast-json-stringify writes for the referenced schema', async () => {
    const app = Fastify({ schemaController: { compilersFactory: { buildSerializer: sharedRefSerializers() } } });
    app.addSchema(ENVELOPE);
    const fail = (status: number) => async (_request: unknown, reply: { code(s: number): { send(b: unknown): unknown } }) => reply.code(status).send(BODY);
    app.get('/a', { schema: { response: { 400: { $ref: 'Envelope#', description: 'bad input' } } } }, fail(400));
    app.get('/b', { schema: { response: { 404: { $ref: 'Envelope#', description: 'unknown', headers: { 'Request-Id': { type: 'string' } } } } } }, fail(404));
    const expected = fastJson({ $ref: 'Envelope#' }, { schema: { Envelope: ENVELOPE } })(BODY);
    expect(JSON.parse(expected)).toEqual({ error: { code: 'invalid_request', param: 'lat' } });
    for (const [url, status] of [['/a', 400], ['/b', 404]] as const) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(status);
      expect(res.body).toBe(expected);
    }
    await app.close();
  });

  it('compiles one function per $ref for documentation-only siblings, and a separate one for any other sibling', () => {
    const compile = sharedRefSerializers()({ Envelope: ENVELOPE }, {});
    const route = (schema: object, httpStatus: string) => ({ schema, method: 'GET', url: '/x', httpStatus });
    const first = compile(route({ $ref: 'Envelope#', description: 'one' }, '400'));
    const second = compile(route({ $ref: 'Envelope#', description: 'two', headers: { 'Request-Id': { type: 'string' } } }, '404'));
    const other = compile(route({ $ref: 'Envelope#', nullable: true }, '409'));
    const plain = compile(route(ENVELOPE.properties.error, '200'));
    expect(second).toBe(first);
    expect(other).not.toBe(first);
    expect(plain).not.toBe(first);
    expect(plain({ code: 'x', param: 'y', z: 1 })).toBe('{"code":"x","param":"y"}');
  });
});
