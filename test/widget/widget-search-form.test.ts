/**
 * The widget's search form against the real service, from a user's walk-through (issue 32):
 * what the radius field shows is what is searched (a refused value says why and searches
 * nothing); an empty answer says the smallest radius that finds something and offers it;
 * "Show more" pages through find and search answers with `offset`, in the API's order.
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

  /** The ids the page lists, in order. */
  const listedIds = (page: Page): Promise<string[]> => page.$$eval('#results > li', (items) => items.map((li) => li.getAttribute('data-id') ?? ''));

  it('issue 32: "Show more" pages a find (nando, 43) by offset 20 then 40, in the order of one 43-venue answer, ranks continuing, then hides', async () => {
    const page = await session.openWidget();
    const finds: URL[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/v1/find')) finds.push(new URL(r.url()));
    });
    await page.fill('#find-q', 'nando');
    await expect.poll(() => page.textContent('#results-status')).toBe('43 venues found; showing the best 20.');
    // the oracle: the whole answer in one request, no paging
    const whole = (await (await fetch(`${session.server.base}/v1/find?q=nando&limit=100`, { headers: { 'API-Key': session.publicKey } })).json()) as { establishments: { id: string }[] };
    const ids = whole.establishments.map((e) => e.id);
    expect(ids).toHaveLength(43);
    expect(await listedIds(page)).toEqual(ids.slice(0, 20));

    expect(await page.textContent('#show-more')).toBe('Show 20 more');
    await page.click('#show-more');
    await expect.poll(() => page.textContent('#results-status')).toBe('43 venues found; showing the best 40.');
    expect(await listedIds(page)).toEqual(ids.slice(0, 40));
    expect(await page.textContent('#results > li:nth-child(21) .rank')).toBe('21');
    expect(await page.evaluate(() => document.activeElement?.closest('li')?.querySelector('.rank')?.textContent)).toBe('21');
    expect(await page.textContent('#show-more')).toBe('Show 3 more');
    await page.click('#show-more');
    await expect.poll(() => page.textContent('#results-status')).toBe('43 venues found.');
    expect(await listedIds(page)).toEqual(ids);
    expect(await page.locator('#show-more').isVisible()).toBe(false);
    expect(finds.map((u) => [u.searchParams.get('q'), u.searchParams.get('offset'), u.searchParams.get('limit')])).toEqual([
      ['nando', '0', '20'],
      ['nando', '20', '20'],
      ['nando', '40', '20'],
    ]);
    await page.close();
  });

  it('issue 32: "Show more" pages a meet-up search: the same body with offset 20, in the order of one 40-venue answer', async () => {
    const page = await session.openWidget();
    await twoPeople(page, 'Leeds', 'York');
    await page.fill('#radius', '20000');
    const first = page.waitForResponse((r) => r.url().includes('/v1/search/') && (JSON.parse(r.request().postData() ?? '{}') as SearchBody).mode.maxDistance === 20000);
    await page.locator('#radius').blur();
    const firstRequest = (await first).request();
    await expect.poll(() => page.textContent('#results-status')).toMatch(/^\d+ venues found; showing the best 20\.$/);
    const whole = (await (
      await fetch(firstRequest.url().replace(/\?.*$/, '?limit=40'), { method: 'POST', headers: { 'content-type': 'application/json', 'API-Key': session.publicKey }, body: firstRequest.postData()! })
    ).json()) as { establishments: { id: string }[] };
    expect(whole.establishments).toHaveLength(40);
    const second = page.waitForRequest((r) => r.url().includes('/v1/search/') && new URL(r.url()).searchParams.get('offset') === '20');
    await page.click('#show-more');
    expect((await second).postData()).toBe(firstRequest.postData());
    await expect.poll(() => listedIds(page)).toEqual(whole.establishments.map((e) => e.id));
    expect(await page.textContent('#results-status')).toMatch(/; showing the best 40\.$/);
    await page.close();
  });
});
