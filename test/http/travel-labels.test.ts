/**
 * Every location keeps its entry in each result's `travel` over HTTP, whatever its label
 * holds (audit 60c: a label with a line break vanished from `travel`, serialized away, while
 * `group.counted` still named it). Oracle: the engine's own answer to the same body,
 * in-process, and the labels as sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchResponse } from '../../src/schema/search.js';
import { createHarness, type Harness } from './support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

// around the fixture venue fx-00000 (Call Lane, Leeds)
const LABELS = ['a\nb', 'a\rb', '\u2028', 'tab\there', 'plain'];

describe('travel labels over HTTP', () => {
  it('labels with line breaks, a line separator or a tab each keep their travel entry, as in-process', async () => {
    const acct = await h.open();
    const body = {
      locations: LABELS.map((label, k) => ({ lat: 53.8220597 + k * 0.001, lon: -1.5576415, label })),
      mode: { mode: 'POINT', maxDistance: 1500, fairness: 'MIN_MAX' },
    };
    const res = await h.app.inject({ method: 'POST', url: '/v1/search/?limit=5', headers: { 'api-key': acct.secretKey }, payload: body });
    expect(res.statusCode).toBe(200);
    const answer = res.json() as { establishments: Array<{ id: string; travel: Record<string, unknown>; group?: { counted: string[] } }> };
    expect(answer.establishments.length).toBeGreaterThan(0);
    const local = h.engine.search(body, { limit: 5 }) as SearchResponse;
    for (const [k, e] of answer.establishments.entries()) {
      expect(Object.keys(e.travel).sort()).toEqual([...LABELS].sort());
      expect(e.travel).toEqual(JSON.parse(JSON.stringify(local.establishments[k]!.travel)));
      expect(e.group?.counted).toEqual(LABELS);
    }
  });
});
