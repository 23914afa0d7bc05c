/** Shared checks of the error envelope (CONTRACT "HTTP errors") for the reliability tests. */
import { expect } from 'vitest';

const TYPE_OF_STATUS: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'invalid_request_error',
  405: 'invalid_request_error',
  413: 'invalid_request_error',
  415: 'invalid_request_error',
  429: 'rate_limit_error',
};

export interface Envelope {
  message: string;
  type: string;
  code: string;
  param?: string;
}

/** Asserts a 4xx answer carries exactly the envelope fields (`suggestions` on unknown_place only), with the type of its status. */
export function expectEnvelope(status: number, payload: string, what: string): Envelope {
  expect(status, `${what}: status`).toBeGreaterThanOrEqual(400);
  expect(status, `${what}: status`).toBeLessThan(500);
  const body = JSON.parse(payload) as Record<string, unknown>;
  const keys = Object.keys(body).sort();
  expect(keys.every((k) => ['code', 'message', 'param', 'type'].includes(k) || (k === 'suggestions' && body['code'] === 'unknown_place')), `${what}: envelope keys ${keys.join(',')}`).toBe(true);
  if ('suggestions' in body) expect(Array.isArray(body['suggestions']) && (body['suggestions'] as unknown[]).every((s) => typeof s === 'string'), `${what}: suggestions`).toBe(true);
  expect(typeof body['message'], `${what}: message`).toBe('string');
  expect(typeof body['code'], `${what}: code`).toBe('string');
  expect(body['type'], `${what}: type for ${status}`).toBe(TYPE_OF_STATUS[status]);
  if ('param' in body) expect(typeof body['param'], `${what}: param`).toBe('string');
  return body as unknown as Envelope;
}

/** Own property names of the built-in prototypes, to detect pollution afterwards. */
export function prototypeSnapshot(): string {
  const protos = [Object.prototype, Array.prototype, Function.prototype, String.prototype, Number.prototype];
  return protos.map((p) => Reflect.ownKeys(p).map(String).sort().join(',')).join('|');
}

export function expectNoPollution(before: string): void {
  const probe = {} as Record<string, unknown>;
  expect(probe['polluted']).toBeUndefined();
  expect(probe['lat']).toBeUndefined();
  expect(([] as unknown as Record<string, unknown>)['polluted']).toBeUndefined();
  expect(prototypeSnapshot()).toBe(before);
}

/** Rejects if `promise` has not settled within `ms` (a hang is a failure, not a slow pass). */
export async function within<T>(ms: number, promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
