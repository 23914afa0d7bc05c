/**
 * Audit 65b (widget accessibility): where the keyboard focus goes and what a screen reader is
 * told, in headless Chromium against the real service on the fixtures. Oracles: the browser's
 * own document.activeElement, scroll position and the map's zoom, the live region's text, and
 * the API's own answer for a place name (GET /v1/find with `location`), never the page's code.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumAvailable } from './support/browser.js';
import { mapSettled } from './support/map-dom.js';
import { meetUpTwo } from './support/widget-actions.js';
import { widgetSession } from './support/widget-session.js';

/** What holds the focus: its tag and class, and the venue it stands for (a result's li, a marker's data-id, a group's ranks). */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return {
      tag: el?.tagName,
      className: el?.className,
      venue: el?.closest<HTMLElement>('li[data-id]')?.dataset.id ?? el?.dataset.id ?? el?.querySelector<HTMLElement>('.cluster-badge')?.dataset.ranks,
    };
  });

/**
 * Person 1's weight "changed" to the value it has (a `change` event, as when a user leaves the
 * field), which runs the same search after the pause while the focus stays where it is; resolves
 * once the list was rebuilt by that search's answer.
 */
async function researchInPlace(page: Page): Promise<void> {
  await page.evaluate(() => {
    for (const li of Array.from(document.querySelectorAll('#results li'))) li.setAttribute('data-old', '');
    document.querySelector('#locations li input[type="number"]')!.dispatchEvent(new Event('change'));
  });
  await page.waitForFunction(() => {
    const first = document.querySelector('#results li');
    return first !== null && !first.hasAttribute('data-old');
  });
}

describe.skipIf(!chromiumAvailable)('keyboard focus and announcements (audit 65b)', () => {
  const session = widgetSession();

  it('F1: a search that answers while the focus is on a result or on a map marker leaves it on the same venue, not on <body>', async () => {
    const page = await session.openWidget({ viewport: { width: 1280, height: 800 } });
    await meetUpTwo(page);
    await mapSettled(page);

    await page.focus('#results li:nth-child(3) > button.result-button');
    const onResult = await focused(page);
    expect(onResult.venue).toBeDefined();
    await researchInPlace(page);
    expect(await focused(page)).toEqual(onResult);

    await page.focus('.leaflet-marker-pane [tabindex]');
    const onMarker = await focused(page);
    expect(onMarker.venue).toBeDefined();
    await researchInPlace(page);
    await mapSettled(page);
    expect(await focused(page)).toEqual(onMarker);
    await page.close();
  });

  it('F2: an unknown place name is said in the live region, as written under the field', async () => {
    const page = await session.openWidget();
    await page.check('input[name="mode"][value="meet"]');
    await page.fill('#place-name', 'Qwxzyville');
    await page.press('#place-name', 'Enter');
    await page.waitForSelector('#place-error:not([hidden])');
    const words = '"Qwxzyville" is not a place the service knows. Try a town, an area or a postcode.';
    expect(await page.getAttribute('#announce', 'aria-live')).toBe('polite');
    expect(await page.textContent('#announce')).toBe(words);
    // the "did you mean" names too (the API offers Shoreditch for Shordich: place-suggestions.test.ts)
    await page.fill('#place-name', 'Shordich');
    await page.press('#place-name', 'Enter');
    await expect.poll(() => page.textContent('#announce')).toMatch(/^"Shordich" is not a place the service knows\. Did you mean .*Shoreditch.*\?$/);
    await page.close();
  });

  it('F3: a person added by place name is announced with the place the service resolved', async () => {
    const response = await fetch(`${session.server.base}/v1/find?q=Leeds&location=Leeds&limit=1`, { headers: { 'API-Key': session.publicKey } });
    const place = ((await response.json()) as { resolvedPlace: { name: string; Lat: number; Lon: number; area?: string; otherPlaces?: string[] } }).resolvedPlace;
    // a name meaning several places is labelled with the area of the one taken (docs/widget.md): "Leeds, West Yorkshire"
    const label = place.otherPlaces !== undefined ? `${place.name}, ${place.area!}` : place.name;
    const page = await session.openWidget();
    await page.check('input[name="mode"][value="meet"]');
    await page.fill('#place-name', 'Leeds');
    await page.press('#place-name', 'Enter');
    await page.waitForSelector('#locations li');
    const added = `${label} added at ${place.Lat.toFixed(4)}, ${place.Lon.toFixed(4)}.`;
    // and, for a name of several places, the note offering the others (docs/widget.md)
    const offered = place.otherPlaces === undefined ? '' : ` Took ${label}. Another ${place.name}? ${place.otherPlaces.join(', ')}.`;
    await expect.poll(() => page.textContent('#announce')).toBe(added + offered);
    await page.close();
  });

  it('F8: at desktop width, Escape in the name field beside the open details is the field\'s own: the panel stays, the focus stays in the field', async () => {
    const page = await session.openWidget({ viewport: { width: 1280, height: 800 } });
    await page.fill('#find-q', 'nando');
    await page.waitForSelector('#results li');
    await page.click('#results li button');
    await page.waitForSelector('#details .menu-item');
    await page.focus('#find-q');
    await page.keyboard.press('Escape');
    // the search box cleared itself (the browser's own Escape); its find empties the list after the pause
    await expect.poll(() => page.locator('#results li').count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('find-q');
    expect(await page.locator('#details').isVisible()).toBe(true);
    // Escape elsewhere still closes the panel
    await page.focus('#details button.close');
    await page.keyboard.press('Escape');
    expect(await page.locator('#details').isHidden()).toBe(true);
    await page.close();
  });

  it('F4: Space on a focused venue group zooms in like Enter, and the phone page does not scroll away', async () => {
    const page = await session.openWidget({ viewport: { width: 390, height: 844 } });
    await page.fill('#find-q', 'nando');
    await page.waitForSelector('#results li:nth-child(20)');
    await mapSettled(page);
    const group = page.locator('.leaflet-marker-icon.venue-cluster').first();
    await group.focus();
    const before = await page.evaluate(() => ({ scrollY, zoom: Number(document.getElementById('map')!.dataset.zoom) }));
    await page.keyboard.press(' ');
    await expect.poll(() => page.evaluate(() => Number(document.getElementById('map')!.dataset.zoom))).toBeGreaterThan(before.zoom);
    expect(await page.evaluate(() => scrollY)).toBe(before.scrollY);
    await page.close();
  });
});
