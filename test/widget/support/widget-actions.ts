/** What a person does on the widget page, shared by the browser tests. */
import type { Page } from 'playwright-core';
import { mapSettled } from './map-dom.js';

/** Meet-up mode, then a person added by place name (the map centres on the place). */
export async function addPersonByName(page: Page, name: string): Promise<void> {
  await page.check('input[name="mode"][value="meet"]');
  await page.fill('#place-name', name);
  await page.click('#place-form button[type="submit"]');
  await page.waitForSelector('#locations li');
  await mapSettled(page);
}

/**
 * Route mode around a place: the map is centred on `place` (through meet-up's place field),
 * then one click per offset from the map's centre (CSS pixels), quickly enough that one
 * search follows.
 */
export async function drawRouteAround(page: Page, place: string, offsets: (map: { width: number; height: number }) => readonly (readonly [number, number])[]): Promise<void> {
  await addPersonByName(page, place);
  await page.check('input[name="mode"][value="route"]');
  await mapSettled(page);
  const map = (await page.locator('#map').boundingBox())!;
  for (const [dx, dy] of offsets(map)) await page.mouse.click(map.x + map.width / 2 + dx, map.y + map.height / 2 + dy);
}

/** Meet-up with two people: London by name, one more by a click beside the map's centre; waits for the results. */
export async function meetUpTwo(page: Page): Promise<void> {
  await addPersonByName(page, 'London');
  const map = (await page.locator('#map').boundingBox())!;
  await page.mouse.click(map.x + map.width / 2 + 110, map.y + map.height / 2 + 50);
  await page.waitForSelector('#results li');
}

/** Types `value` into person `k`'s weight field and leaves it (Tab), as a user edits it. */
export async function setWeight(page: Page, k: number, value: string): Promise<void> {
  const field = page.locator('#locations li').nth(k).locator('input[type="number"]');
  await field.fill(value);
  await field.press('Tab');
}
