/**
 * Audit 67c F1: on the cheapest plan (Builder, one request a second, the real windows) the
 * widget's own request pattern must never become a failure a person sees: details (basic, then
 * menus), a place look-up followed by the meet-up search, typing with pauses, and a call refused
 * because someone else used the key in the same second. Each action is started at the beginning
 * of a wall-clock second (the server's fixed windows are aligned to the epoch, the test shares its
 * clock), so the old page's calls fall in one window. The oracle is the API's own JSON for the
 * same request, asked with another account's key.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumAvailable } from './support/browser.js';
import { recordCalls, recordNotices, startOfSecond } from './support/api-calls.js';
import { widgetSession } from './support/widget-session.js';

const shownIds = (page: Page): Promise<string[]> => page.$$eval('#results > li[data-id]', (items) => items.map((li) => (li as HTMLElement).dataset.id!));

describe.skipIf(!chromiumAvailable)('the widget on a plan of one request a second (audit 67c F1)', () => {
  const session = widgetSession({ realPlanWindows: true });

  /** The API's JSON for `path` (GET, or POST with `body`), with the session's Enterprise key. */
  const oracle = async <T>(path: string, body?: string): Promise<T> => {
    const res = await fetch(`${session.server.base}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'API-Key': session.publicKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body }),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as T;
  };
  const builderKey = async (): Promise<string> => (await session.server.open('Builder')).publicKey;

  it('a venue clicked in the list opens its details (basic, then menus a second later), as the API answers them', async () => {
    const page = await session.openWidget({ key: await builderKey() });
    const calls = recordCalls(page);
    await page.fill('#find-q', 'nando');
    await page.waitForSelector('#results li');
    const id = (await shownIds(page))[0]!;
    await startOfSecond();
    await page.click('#results > li:first-child button.result-button');
    await page.waitForSelector('#details:not([hidden]) #details-name', { timeout: 8000 });
    const basic = await oracle<{ name: string; displayName?: string }>(`/v1/establishments/basic/${encodeURIComponent(id)}`);
    const menus = await oracle<{ name: string }[]>(`/v1/establishments/menus/${encodeURIComponent(id)}`);
    expect(await page.textContent('#details-name')).toBe(basic.displayName || basic.name);
    expect(await page.$$eval('#details h4', (hs) => hs.map((x) => x.textContent))).toEqual(menus.map((m) => m.name));
    expect(menus.length).toBeGreaterThan(0);
    expect(calls.filter((c) => c.status !== 200)).toEqual([]);
    expect(await page.isHidden('#notice')).toBe(true);
    await page.close();
  });

  it('a person added by place name, then the search 350 ms later: the list is the API\'s answer, after a visible wait', async () => {
    const page = await session.openWidget({ key: await builderKey() });
    const calls = recordCalls(page);
    let body: string | undefined;
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().includes('/v1/search/')) body = r.postData() ?? undefined;
    });
    await page.check('input[name="mode"][value="meet"]');
    await page.fill('#place-name', 'London');
    await page.click('#place-form button[type="submit"]');
    await page.waitForSelector('#locations li');
    await page.fill('#place-name', 'Westminster');
    const notices = await recordNotices(page);
    await startOfSecond();
    await page.click('#place-form button[type="submit"]');
    // the page says it waits for the plan's limit, then shows the answer
    await expect.poll(async () => (await notices()).length, { timeout: 3000 }).toBeGreaterThan(0);
    expect((await notices())[0]).toMatch(/^This site's venue search is at its plan's request limit; continuing in 1 second…$/);
    await page.waitForSelector('#results li', { timeout: 8000 });
    expect(body).toBeDefined();
    const answer = await oracle<{ establishments: { id: string }[] }>('/v1/search/?limit=20&offset=0', body);
    expect(answer.establishments.length).toBeGreaterThan(0);
    expect(await shownIds(page)).toEqual(answer.establishments.map((e) => e.id));
    expect(calls.filter((c) => c.status !== 200)).toEqual([]);
    expect(await page.isHidden('#notice')).toBe(true);
    await page.close();
  });

  it('typing with pauses longer than the debounce: one find per pause, none refused, the list is the API\'s for the last text', async () => {
    const page = await session.openWidget({ key: await builderKey() });
    const calls = recordCalls(page);
    const answer = await oracle<{ establishments: { id: string }[] }>('/v1/find?q=nando&limit=20&offset=0');
    expect(answer.establishments.length).toBeGreaterThan(0);
    await startOfSecond();
    await page.fill('#find-q', 'nan');
    await page.waitForTimeout(350); // longer than the 300 ms pause that sends a find
    const nando = page.waitForResponse((r) => r.url().includes('q=nando'), { timeout: 8000 });
    await page.fill('#find-q', 'nando');
    await nando;
    await page.waitForFunction(() => document.querySelector('#results-status')?.textContent?.includes('found'), undefined, { polling: 100, timeout: 8000 });
    expect(await shownIds(page)).toEqual(answer.establishments.map((e) => e.id));
    expect(calls.map((c) => c.status)).toEqual([200, 200]);
    expect(calls.map((c) => new URL(c.path, 'http://x').searchParams.get('q'))).toEqual(['nan', 'nando']);
    await page.close();
  });

  it('a find refused (429) because the key was used elsewhere in that second is sent again after Retry-After', async () => {
    const key = await builderKey();
    const page = await session.openWidget({ key });
    const calls = recordCalls(page);
    const notices = await recordNotices(page);
    await startOfSecond();
    // another visitor of the same site: the second's one request
    expect((await fetch(`${session.server.base}/v1/find?q=pub`, { headers: { 'API-Key': key } })).status).toBe(200);
    await page.fill('#find-q', 'nando');
    await expect.poll(async () => (await notices()).length, { timeout: 3000 }).toBeGreaterThan(0);
    expect((await notices())[0]).toMatch(/^This site's venue search is at its plan's request limit; continuing in 1 second…$/);
    await page.waitForSelector('#results li', { timeout: 8000 });
    const answer = await oracle<{ establishments: { id: string }[] }>('/v1/find?q=nando&limit=20&offset=0');
    expect(await shownIds(page)).toEqual(answer.establishments.map((e) => e.id));
    expect(calls.map((c) => c.status)).toEqual([429, 200]);
    expect(await page.isHidden('#notice')).toBe(true);
    await page.close();
  });
});
