/**
 * The widget's search form against the real service, from a user's walk-through (issue 32):
 * what the radius field shows is what is searched (a refused value says why and searches
 * nothing); an empty answer says the smallest radius that finds something and offers it.
 * Oracles: the request bodies the browser sent, and the API's own answers to the same
 * requests made directly.
 */
import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumAvailable } from './support/browser.js';
import { addPersonByName } from './support/widget-actions.js';
import { SHOTS, widgetSession } from './support/widget-session.js';

interface SearchBody {
  mode: { mode: string; maxDistance: number };
}

/** Every search request the page sends from now on, with its body. */
function recordSearches(page: Page): SearchBody[] {
  const bodies: SearchBody[] = [];
  page.on('request', (r: Request) => {
    if (r.url().includes('/v1/search/') && r.method() === 'POST') bodies.push(JSON.parse(r.postData() ?? '{}') as SearchBody);
  });
  return bodies;
}

/** Two people by place name: meet-up searches on its own from then on. */
async function twoPeople(page: Page, first: string, second: string): Promise<void> {
  await addPersonByName(page, first);
  await page.fill('#place-name', second);
  await page.click('#place-form button[type="submit"]');
  await expect.poll(() => page.locator('#locations li').count()).toBe(2);
}

describe.skipIf(!chromiumAvailable)('widget search form in headless Chromium (issue 32)', () => {
  const session = widgetSession();

  it('issue 32: the radius field refuses 999999, -5, 0, empty and 12.5 with a visible message and searches nothing; 2500 is searched as 2500', async () => {
    const page = await session.openWidget();
    await twoPeople(page, 'Leeds', 'York');
    await page.waitForSelector('#results-status:has-text("found")');
    const searches = recordSearches(page);
    // the limits are on the field itself, the API's (docs/search.md: POINT at most 50,000 m)
    expect(await page.$eval('#radius', (e) => [(e as HTMLInputElement).min, (e as HTMLInputElement).max, (e as HTMLInputElement).step])).toEqual(['1', '50000', '1']);
    for (const [typed, why] of [
      ['999999', 'out of range'],
      ['-5', 'out of range'],
      ['0', 'out of range'],
      ['', 'Enter the radius'],
      ['12.5', 'not whole'],
    ] as const) {
      await page.fill('#radius', typed);
      await page.locator('#radius').blur(); // "change"
      await expect.poll(() => page.textContent('#radius-error')).toContain(why);
      expect(await page.locator('#radius-error').isVisible(), typed).toBe(true);
      expect(await page.textContent('#radius-error'), typed).toContain('a whole number of metres from 1 to 50,000');
      expect(await page.getAttribute('#radius', 'aria-invalid'), typed).toBe('true');
      expect(await page.inputValue('#radius'), typed).toBe(typed); // shown as typed, never replaced
      await expect.poll(() => page.textContent('#results-status')).toBe('No search until the radius is valid.');
      expect(await page.locator('#results li').count(), typed).toBe(0);
    }
    await page.click('#search-button');
    await page.waitForTimeout(500); // longer than the search's 350 ms pause
    expect(searches).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/radius-refused.png` });

    const searched = page.waitForRequest((r) => r.url().includes('/v1/search/'));
    await page.fill('#radius', '2500');
    await page.locator('#radius').blur();
    expect((JSON.parse((await searched).postData()!) as SearchBody).mode.maxDistance).toBe(2500);
    expect(await page.locator('#radius-error').isVisible()).toBe(false);
    expect(await page.getAttribute('#radius', 'aria-invalid')).toBeNull();
    expect(searches.map((b) => b.mode.maxDistance)).toEqual([2500]);
    await page.close();
  });

  it('issue 32: an empty meet-up (Leeds, York, Harrogate at 1000 m) says the API\'s smallestFeasibleMaxDistance in words; its button sets the radius and finds venues', async () => {
    const page = await session.openWidget();
    await twoPeople(page, 'Leeds', 'York');
    const emptySearch = page.waitForResponse((r) => r.url().includes('/v1/search/') && (r.request().postData() ?? '').includes('Harrogate'));
    await page.fill('#place-name', 'Harrogate');
    await page.click('#place-form button[type="submit"]');
    const request = (await emptySearch).request();
    // the oracle: the API's own answer to the same request
    const api = (await (
      await fetch(request.url(), { method: 'POST', headers: { 'content-type': 'application/json', 'API-Key': session.publicKey }, body: request.postData()! })
    ).json()) as { totalResults: number; smallestFeasibleMaxDistance?: number };
    expect(api.totalResults).toBe(0);
    const smallest = api.smallestFeasibleMaxDistance!;
    expect(smallest).toBeGreaterThan(1000);
    const words = `${smallest.toLocaleString('en-GB')} m`;
    await expect.poll(() => page.textContent('#results-status')).toBe(`No venues found with a radius of 1,000 m; a radius of ${words} would find at least one.`);
    expect(await page.textContent('#widen-radius')).toBe(`Search with a radius of ${words}`);
    await page.screenshot({ path: `${SHOTS}/empty-answer.png` });

    const widened = page.waitForResponse((r) => r.url().includes('/v1/search/') && (JSON.parse(r.request().postData() ?? '{}') as SearchBody).mode.maxDistance === smallest);
    await page.click('#widen-radius');
    const answer = (await (await widened).json()) as { totalResults: number };
    expect(answer.totalResults).toBeGreaterThan(0);
    expect(await page.inputValue('#radius')).toBe(String(smallest)); // shown is searched
    await expect.poll(() => page.locator('#results > li').count()).toBe(Math.min(20, answer.totalResults));
    expect(await page.locator('#widen-radius').isVisible()).toBe(false);
    expect(await page.locator('#radius-error').isVisible()).toBe(false);
    await page.close();
  });
});

