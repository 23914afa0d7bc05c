/**
 * Audit 67c F3: "Newport" typed in the place field quietly became Newport, Wales, 200 km
 * from the London venues. The person is now labelled with the area of the place taken, a
 * note under the field says which place was taken and offers the others of the name, and
 * choosing one replaces that person (same weight) rather than adding one. Oracle: the API's
 * own find JSON (GET /v1/find with `location`) for "Newport" and for the chosen other place,
 * read here from the server. The fixtures are London venues, and the API's answer for
 * "Newport" on them names three other places (checked below before the page is driven).
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumAvailable } from './support/browser.js';
import { drawnPoints, mapSettled } from './support/map-dom.js';
import { setWeight } from './support/widget-actions.js';
import { widgetSession } from './support/widget-session.js';

interface Resolved {
  name: string;
  Lat: number;
  Lon: number;
  area?: string;
  otherPlaces?: string[];
}

describe.skipIf(!chromiumAvailable)('a place name meaning several places (audit 67c F3)', () => {
  const session = widgetSession();

  const resolve = async (name: string): Promise<Resolved> => {
    const url = `${session.server.base}/v1/find?q=${encodeURIComponent(name)}&location=${encodeURIComponent(name)}&limit=1`;
    const response = await fetch(url, { headers: { 'API-Key': session.publicKey } });
    expect(response.status).toBe(200);
    return ((await response.json()) as { resolvedPlace: Resolved }).resolvedPlace;
  };
  const coords = (p: { Lat: number; Lon: number }): string => `${p.Lat.toFixed(4)}, ${p.Lon.toFixed(4)}`;

  /** Meet-up mode, "Newport" added by name; returns the API's place for it. */
  const addNewport = async (page: Page): Promise<Resolved> => {
    const api = await resolve('Newport');
    expect(api.area).toBeDefined();
    expect(api.otherPlaces?.length).toBeGreaterThan(1);
    await page.check('input[name="mode"][value="meet"]');
    await page.fill('#place-name', 'Newport');
    await page.click('#place-form button[type="submit"]');
    await page.waitForSelector('#locations li');
    return api;
  };

  it('the person is labelled with the area of the place taken, and the note names it and offers the other places as buttons, announced', async () => {
    const page = await session.openWidget();
    const api = await addNewport(page);
    const taken = `${api.name}, ${api.area!}`;
    expect(taken).toBe('Newport, Wales'); // the audit's case, hand-checked
    expect(await page.textContent('#locations li .person-name')).toBe(taken);
    expect(await page.textContent('#locations li .coords')).toBe(coords(api));
    await page.waitForSelector('#place-note:not([hidden])');
    expect(await page.locator('#place-note button').allTextContents()).toEqual(api.otherPlaces);
    expect(await page.textContent('#place-note')).toBe(`Took ${taken}. Another ${api.name}? ${api.otherPlaces!.join(' ')}`);
    expect(await page.textContent('#announce')).toBe(`${taken} added at ${coords(api)}. Took ${taken}. Another ${api.name}? ${api.otherPlaces!.join('; ')}.`);
    expect((await page.getAttribute('#place-name', 'aria-describedby'))?.split(' ')).toContain('place-note');
    await page.close();
  });

  it('choosing another place replaces the person just added (same weight, one person), at the API\'s point for that name', async () => {
    const page = await session.openWidget();
    const api = await addNewport(page);
    await setWeight(page, 0, '2');
    const chosen = api.otherPlaces![0]!;
    await page.click(`#place-note button:text-is("${chosen}")`);
    await expect.poll(() => page.textContent('#locations li .person-name')).toBe(chosen);
    const there = await resolve(chosen);
    expect(await page.locator('#locations li').count()).toBe(1);
    expect(await page.textContent('#locations li .coords')).toBe(coords(there));
    expect(await page.inputValue('#locations li input[type="number"]')).toBe('2');
    await mapSettled(page);
    const pins = await drawnPoints(page, '.person-marker');
    expect(pins).toHaveLength(1);
    expect(pins[0]!.lat).toBeCloseTo(there.Lat, 9);
    expect(pins[0]!.lon).toBeCloseTo(there.Lon, 9);
    expect(Math.abs(there.Lat - api.Lat) + Math.abs(there.Lon - api.Lon)).toBeGreaterThan(0.1); // really another place
    expect(await page.locator('#place-note').isHidden()).toBe(true);
    expect(await page.textContent('#announce')).toBe(`Newport, Wales is now ${chosen}, at ${coords(there)}.`);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('place-name');
    await page.close();
  });

  it('typing in the field, or adding another person, clears the note', async () => {
    const page = await session.openWidget();
    await addNewport(page);
    await page.waitForSelector('#place-note:not([hidden])');
    await page.type('#place-name', 'L');
    expect(await page.locator('#place-note').isHidden()).toBe(true);

    await page.fill('#place-name', '');
    await page.fill('#place-name', 'Newport');
    await page.click('#place-form button[type="submit"]');
    await page.waitForSelector('#place-note:not([hidden])');
    await mapSettled(page);
    const map = (await page.locator('#map').boundingBox())!;
    await page.mouse.click(map.x + map.width / 2 + 110, map.y + map.height / 2 + 50);
    await expect.poll(() => page.locator('#locations li').count()).toBe(3);
    expect(await page.locator('#place-note').isHidden()).toBe(true);
    await page.close();
  });

  it('a name of one place adds no note and keeps its plain label', async () => {
    const api = await resolve('Newport, Isle of Wight');
    expect(api.otherPlaces).toBeUndefined();
    const page = await session.openWidget();
    await page.check('input[name="mode"][value="meet"]');
    await page.fill('#place-name', 'Newport, Isle of Wight');
    await page.click('#place-form button[type="submit"]');
    await page.waitForSelector('#locations li');
    expect(await page.textContent('#locations li .person-name')).toBe(api.name);
    expect(await page.locator('#place-note').isHidden()).toBe(true);
    await page.close();
  });
});
