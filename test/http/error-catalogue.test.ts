/**
 * Issue 18: one catalogue of HTTP error codes (src/http/http-errors.ts). Every code in it is
 * documented in docs/http.md's error table with the same status and type, and every code the
 * table documents is in the catalogue: the two cannot drift.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HTTP_ERRORS, HttpError } from '../../src/http/http-errors.js';

function documentedRows(): Map<string, { status: number; type: string }> {
  const doc = readFileSync('docs/http.md', 'utf8');
  const rows = new Map<string, { status: number; type: string }>();
  for (const m of doc.matchAll(/^\| (\d{3}) \| ([a-z_]+) \| `([a-z_]+)` \|/gm)) rows.set(m[3]!, { status: Number(m[1]), type: m[2]! });
  return rows;
}

describe('the HTTP error catalogue', () => {
  it('matches the docs/http.md table, code by code, in both directions', () => {
    const documented = documentedRows();
    expect(Object.fromEntries(documented)).toEqual(Object.fromEntries(Object.entries(HTTP_ERRORS).map(([code, e]) => [code, { status: e.status, type: e.type }])));
  });

  it('an HttpError takes its status and type from the catalogue', () => {
    const error = new HttpError('rate_limited', 'slow down');
    expect([error.status, error.type, error.code]).toEqual([429, 'rate_limit_error', 'rate_limited']);
  });
});
