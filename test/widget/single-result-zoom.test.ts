/**
 * Audit 62c finding 4: a find with one result is framed at a zoom where the offline base
 * names the places around it, not at street zoom on a blank map. Oracle: the API's own
 * answer (one venue, in Bristol), and the labels' and marker's layout boxes.
 */
import { describe, expect, it } from 'vitest';
import { chromiumAvailable } from './support/browser.js';
import { boxes, inside, mapBox, mapSettled } from './support/map-dom.js';
import { widgetSession } from './support/widget-session.js';

describe.skipIf(!chromiumAvailable)('one result on the offline base (audit 62c finding 4)', () => {
  const session = widgetSession();

  it('find "abbott speakeasy" (one venue): the fit stops at zoom 13 or wider, and two or more place names, Bristol among them, are drawn in view around the venue', async () => {
    const api = (await (await fetch(`${session.server.base}/v1/find?q=abbott%20speakeasy&limit=20`, { headers: { 'API-Key': session.publicKey } })).json()) as { totalFound: number };
    expect(api.totalFound).toBe(1);
    const page = await session.openWidget();
    await page.fill('#find-q', 'abbott speakeasy');
    await page.waitForSelector('#map .venue-marker[data-rank="1"]');
    await mapSettled(page);
    await expect.poll(async () => Number(await page.getAttribute('#map', 'data-zoom'))).toBeLessThanOrEqual(13);
    const frame = await mapBox(page);
    const [marker] = await boxes(page, '#map .venue-marker');
    expect(inside(marker!, frame)).toBe(true);
    await expect.poll(async () => (await boxes(page, '#map .place-label', 'class')).filter((b) => inside(b, frame, 40)).length).toBeGreaterThanOrEqual(2);
    const bristol = await page.locator('#map .place-label', { hasText: /^Bristol$/ }).boundingBox();
    expect(bristol).not.toBeNull();
    expect(inside({ left: bristol!.x, top: bristol!.y, right: bristol!.x + bristol!.width, bottom: bristol!.y + bristol!.height }, frame, 40)).toBe(true);
    await page.close();
  });
});
