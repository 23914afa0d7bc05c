/**
 * Audit 62c finding 7: "open at a chosen time" is read in the venues' time zone, shown under
 * the field in words with its offset on the chosen date (audit 64c F4), not in the device's.
 * A browser is started in New York's zone; the people are in London. Oracles: London's offsets by hand (GMT in December, BST in
 * July), and the API's own answer to the same search at that instant.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumAvailable, launchBrowser } from './support/browser.js';
import { meetUpTwo } from './support/widget-actions.js';
import { widgetSession } from './support/widget-session.js';

describe.skipIf(!chromiumAvailable)('open at a chosen time, in the venues\' zone (audit 62c finding 7)', () => {
  const session = widgetSession();

  async function searchedAt(page: Page, local: string): Promise<{ body: Record<string, unknown>; totalResults: number }> {
    const answered = page.waitForResponse((r) => r.url().includes('/v1/search/') && (r.request().postData() ?? '').includes('"atTime"'));
    await page.fill('#open-at', local);
    await page.locator('#open-at').dispatchEvent('change');
    const response = await answered;
    return { body: JSON.parse(response.request().postData()!) as Record<string, unknown>, totalResults: ((await response.json()) as { totalResults: number }).totalResults };
  }

  it('a visitor in New York meeting in London: Fri 4 Dec 2026 20:00 is searched as 20:00Z (GMT), 3 Jul 20:00 as 19:00Z (BST), the zone is shown, and the list matches the API at that instant', async () => {
    const newYork = await launchBrowser(undefined, 'America/New_York');
    try {
      const page = await newYork.context.newPage();
      await page.goto(`${session.server.base}/v1/widget/?key=${session.publicKey}`);
      await page.waitForSelector('body[data-ready="true"]');
      expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe('America/New_York');
      await meetUpTwo(page);
      await page.click('#prefs summary');
      await page.selectOption('#open-mode', 'at');
      // the zone in words, never its IANA id (audit 64c F4)
      await expect.poll(() => page.textContent('#open-at-zone')).toMatch(/^Times are [^_/]+ \(.*UTC\+[01] on that date\), where the venues are\.$/);
      expect(await page.locator('#open-at-zone').isVisible()).toBe(true);

      for (const [local, utc, offset] of [['2026-12-04T20:00', '2026-12-04T20:00:00Z', 'UTC+0'], ['2026-07-03T20:00', '2026-07-03T19:00:00Z', 'UTC+1']] as const) {
        const { body, totalResults } = await searchedAt(page, local);
        // London's offset on that date, by hand: GMT in December, BST in July
        expect(await page.textContent('#open-at-zone')).toMatch(new RegExp(`^Times are [^_/]+ \\(.*${offset.replace('+', '\\+')} on that date\\), where the venues are\\.$`));
        const prefs = body.preferences as { openingConditions: { atTime: string } };
        expect(prefs.openingConditions.atTime, local).toBe(utc);
        // the API, asked the same search at that instant with the same key, finds as many
        const replay = await fetch(`${session.server.base}/v1/search/?limit=20&offset=0`, { method: 'POST', headers: { 'content-type': 'application/json', 'API-Key': session.publicKey }, body: JSON.stringify(body) });
        expect(((await replay.json()) as { totalResults: number }).totalResults).toBe(totalResults);
        await expect.poll(() => page.textContent('#results-status')).toMatch(totalResults === 0 ? /^No venues found/ : new RegExp(`^${totalResults} venues? found`));
      }
    } finally {
      await newYork.close();
    }
  });
});
