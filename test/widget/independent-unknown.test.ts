/**
 * Audit 67c F2: "Independent venues only" on data that marks only chains (the OpenStreetMap
 * import: `isChain: true` for branded venues, absent otherwise; docs/import.md) finds nothing,
 * since an unknown chain status never satisfies the hard preference (docs/search.md, unchanged).
 * The page said no radius up to 50 km would help; it now says why: the chain status is unknown.
 * The data: the fixtures with `isChain: false` removed (unknown), as such an import reads. The oracle: the API's own answers to the body the page sent, and to the
 * same body without the hard preference (the venues are there, their `chainMatch` 0 for a chain or the unknown 0.5).
 */
import { describe, expect, it } from 'vitest';
import { chromiumAvailable } from './support/browser.js';
import { addPersonByName } from './support/widget-actions.js';
import { widgetSession } from './support/widget-session.js';

interface Answer {
  readonly totalResults: number;
  readonly smallestFeasibleMaxDistance?: number;
  readonly establishments: readonly { readonly matchScore: { readonly chainMatch: number } }[];
}

describe.skipIf(!chromiumAvailable)('"Independent venues only" where no venue is known to be independent (audit 67c F2)', () => {
  // as the OpenStreetMap import records it: a chain is marked, an independent venue is not
  const session = widgetSession({
    adapt: (venue) => {
      if (venue.isChain !== false) return venue;
      const { isChain: _independent, ...unmarked } = venue;
      return unmarked;
    },
  });

  const ask = async (body: unknown): Promise<Answer> => {
    const res = await fetch(`${session.server.base}/v1/search/?limit=20&offset=0`, {
      method: 'POST',
      headers: { 'API-Key': session.publicKey, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as Answer;
  };

  it('the empty answer says the chain status is unknown, not that no radius would do', async () => {
    const page = await session.openWidget();
    const sent: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().includes('/v1/search/')) sent.push(r.postData() ?? '');
    });
    await addPersonByName(page, 'London');
    await page.fill('#place-name', 'Islington');
    await page.click('#place-form button[type="submit"]');
    await page.waitForSelector('#results li');
    await page.click('#prefs summary');
    await page.check('#independent');
    await page.waitForFunction(() => document.querySelector('#results-status')?.textContent?.startsWith('No venues found'), undefined, { polling: 100, timeout: 8000 });
    const body = JSON.parse(sent.at(-1)!) as { preferences: { chainPreference?: string; nonCompromise?: string[] } };
    expect(body.preferences.chainPreference).toBe('PREFER_INDEPENDENT');
    expect(body.preferences.nonCompromise).toEqual(['chainPreference']);
    const answer = await ask(body);
    expect(answer.totalResults).toBe(0);
    expect(answer.smallestFeasibleMaxDistance).toBeUndefined();
    const { nonCompromise: _hard, ...soft } = body.preferences;
    const without = await ask({ ...body, preferences: soft });
    expect(without.totalResults).toBeGreaterThan(0);
    // the venues here: chains (0) or of unknown chain status (0.5), none known independent (1)
    const chain = without.establishments.map((e) => e.matchScore.chainMatch);
    expect(chain.filter((c) => c !== 0 && c !== 0.5)).toEqual([]);
    expect(chain).toContain(0.5);
    expect(await page.textContent('#results-status')).toBe(
      'No venues found within 50,000 m with these needs. "Independent venues only" counts only venues known not to be part of a chain, and the venues here are chains or their chain status is unknown. Untick it to see them.',
    );
    expect(await page.isHidden('#widen-radius')).toBe(true);
    await page.close();
  });
});
