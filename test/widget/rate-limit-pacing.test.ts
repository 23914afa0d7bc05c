/**
 * Audit 68a F1 and F2: on the cheapest plan (Builder, one request a second, the real windows)
 * calls waiting for the same window go one per window, whether they come from one widget (a
 * second venue opened while the first's details load) or from two widgets of one page sharing
 * the key. Each action starts at the beginning of a wall-clock second (the server's windows are
 * aligned to the epoch, the test shares its clock). The oracles: the API's own JSON for the same
 * request (another account's key), and the server's own count of the 429s it answered.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Frame, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumAvailable } from './support/browser.js';
import { recordCalls, startOfSecond } from './support/api-calls.js';
import { widgetSession } from './support/widget-session.js';

/** A site embedding the widget (another origin than the API's): serves `html` on a free port until closed. */
async function embeddingSite(html: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', connection: 'close' });
    res.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const close = (): Promise<void> => {
    // Chromium may hold a preconnected socket that never sends a request; close() alone waits
    // for it until the server's headersTimeout (60 s, the test's whole budget)
    server.closeAllConnections();
    return new Promise((resolve) => server.close(() => resolve()));
  };
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close };
}

const shownIds = (where: Page | Frame): Promise<string[]> => where.$$eval('#results > li[data-id]', (items) => items.map((li) => (li as HTMLElement).dataset.id!));

describe.skipIf(!chromiumAvailable)('calls waiting for one window of a one-request-a-second plan go one per window (audit 68a)', () => {
  const session = widgetSession({ realPlanWindows: true });

  /** The server's count of the requests it refused with 429 from now on. */
  const refusals = (): { count: number } => {
    const counter = { count: 0 };
    session.server.app.server.on('request', (_req, res) => {
      res.on('finish', () => {
        if (res.statusCode === 429) counter.count++;
      });
    });
    return counter;
  };

  /** The API's JSON for GET `path`, with the session's Enterprise key. */
  const oracle = async <T>(path: string): Promise<T> => {
    const res = await fetch(`${session.server.base}${path}`, { headers: { 'API-Key': session.publicKey } });
    expect(res.status).toBe(200);
    return (await res.json()) as T;
  };
  const builderKey = async (): Promise<string> => (await session.server.open('Builder')).publicKey;

  it('a second venue opened 0.5 s after the first: its details shown, no banner, no call refused, the first venue\'s menus never asked', async () => {
    const page = await session.openWidget({ key: await builderKey() });
    await page.fill('#find-q', 'nando');
    await page.waitForSelector('#results > li:nth-child(2)');
    const [first, second] = (await shownIds(page)) as [string, string];
    const calls = recordCalls(page);
    const refused = refusals();
    await startOfSecond();
    await page.click('#results > li:nth-child(1) button.result-button');
    await page.waitForTimeout(500);
    await page.click('#results > li:nth-child(2) button.result-button');
    await page.waitForSelector('#details:not([hidden]) #details-name', { timeout: 8000 });
    await page.waitForTimeout(3000); // any call still waiting has landed by now
    const basic = await oracle<{ name: string; displayName?: string; formattedAddress: string }>(`/v1/establishments/basic/${encodeURIComponent(second)}`);
    const firstBasic = await oracle<{ formattedAddress: string }>(`/v1/establishments/basic/${encodeURIComponent(first)}`);
    const menus = await oracle<{ name: string }[]>(`/v1/establishments/menus/${encodeURIComponent(second)}`);
    expect(basic.formattedAddress).not.toBe(firstBasic.formattedAddress);
    expect(await page.textContent('#details-name')).toBe(basic.displayName || basic.name);
    const panel = (await page.textContent('#details')) ?? '';
    expect(panel).toContain(basic.formattedAddress);
    expect(panel).not.toContain(firstBasic.formattedAddress);
    expect(await page.$$eval('#details h4', (hs) => hs.map((x) => x.textContent))).toEqual(menus.map((m) => m.name));
    expect(await page.isHidden('#notice')).toBe(true);
    expect(refused.count).toBe(0);
    expect(calls).toEqual([
      { status: 200, path: `/v1/establishments/basic/${encodeURIComponent(first)}` },
      { status: 200, path: `/v1/establishments/basic/${encodeURIComponent(second)}` },
      { status: 200, path: `/v1/establishments/menus/${encodeURIComponent(second)}` },
    ]);
    await page.close();
  });

  it('two widgets of one page with one key, searched in the same second: both lists are the API\'s, no call refused', async () => {
    const key = await builderKey();
    const page = await session.browser.context.newPage();
    page.on('pageerror', (err) => {
      throw err;
    });
    const widget = `${session.server.base}/v1/widget/?key=${key}`;
    const host = await embeddingSite(`<!doctype html><iframe name="a" src="${widget}" width="600" height="700"></iframe><iframe name="b" src="${widget}" width="600" height="700"></iframe>`);
    try {
      await page.goto(host.url);
    } finally {
      await host.close();
    }
    const frames = ['a', 'b'].map((name) => page.frame({ name })!);
    for (const frame of frames) await frame.waitForSelector('body[data-ready="true"]', { timeout: 10_000 });
    const calls = recordCalls(page);
    const refused = refusals();
    const [a, b] = frames as [Frame, Frame];
    await startOfSecond();
    // one after the other (at once, the two fills race for the focus), a few ms apart
    await a.fill('#find-q', 'nando');
    await b.fill('#find-q', 'costa');
    for (const frame of frames) await frame.waitForSelector('#results > li', { timeout: 8000 });
    await page.waitForTimeout(3000); // a refused call's retry would have landed by now
    const nando = await oracle<{ establishments: { id: string }[] }>('/v1/find?q=nando&limit=20&offset=0');
    const costa = await oracle<{ establishments: { id: string }[] }>('/v1/find?q=costa&limit=20&offset=0');
    expect(nando.establishments.length).toBeGreaterThan(0);
    expect(costa.establishments.length).toBeGreaterThan(0);
    expect(await shownIds(a)).toEqual(nando.establishments.map((e) => e.id));
    expect(await shownIds(b)).toEqual(costa.establishments.map((e) => e.id));
    for (const frame of frames) expect(await frame.isHidden('#notice')).toBe(true);
    expect(refused.count).toBe(0);
    expect(calls.map((c) => c.status)).toEqual([200, 200]);
    await page.close();
  });
});
