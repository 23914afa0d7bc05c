/**
 * Audit 62c finding 6: a person's pin placed on a venue must not hide the venue's number.
 * A person is clicked onto the exact point of a fixture venue (placed on the screen by the
 * slippy-map formula from the map's recorded view); the oracle is the browser's painting
 * order, read from a screenshot's pixels over the venue's badge, never the page's code.
 */
import { readFileSync } from 'node:fs';
import { distance, point } from '@turf/turf';
import { describe, expect, it } from 'vitest';
import { chromiumAvailable } from './support/browser.js';
import { mapBox, mapSettled } from './support/map-dom.js';
import { onePixelRgb } from './support/png-pixel.js';
import { addPersonByName } from './support/widget-actions.js';
import { FIXTURES } from './support/widget-server.js';
import { widgetSession } from './support/widget-session.js';

interface FixtureVenue {
  readonly id: string;
  readonly name: string;
  readonly location: { readonly coordinates: readonly [number, number] };
}

function worldPixel(lat: number, lon: number, zoom: number): { x: number; y: number } {
  const size = 256 * 2 ** zoom;
  const phi = (lat * Math.PI) / 180;
  return { x: ((lon + 180) / 360) * size, y: ((1 - Math.log(Math.tan(phi) + 1 / Math.cos(phi)) / Math.PI) / 2) * size };
}

describe.skipIf(!chromiumAvailable)('person pins below venue numbers (audit 62c finding 6)', () => {
  const session = widgetSession();

  it('a person clicked onto a venue: the venue\'s badge (or its group\'s count) is painted above the pin (no pin colour in the badge)', async () => {
    const page = await session.openWidget();
    await addPersonByName(page, 'London');
    const london = await page.$eval('#locations li .coords', (e) => e.textContent!.split(', ').map(Number) as [number, number]);
    // the fixture venue nearest London's point, 200 m to 1.5 km away (inside the 1 km circle round the pair's midpoint)
    const venues = readFileSync(FIXTURES, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as FixtureVenue);
    const away = (v: FixtureVenue) => distance(point([london[1], london[0]]), point([v.location.coordinates[1], v.location.coordinates[0]]), { units: 'meters' });
    const target = venues.filter((v) => away(v) > 200 && away(v) < 1500).sort((a, b) => away(a) - away(b))[0]!;
    expect(target).toBeDefined();
    const [lat, lon] = target.location.coordinates;
    const view = await page.$eval('#map', (el) => ({ lat: Number(el.getAttribute('data-centre-lat')), lon: Number(el.getAttribute('data-centre-lon')), zoom: Number(el.getAttribute('data-zoom')) }));
    const frame = await mapBox(page);
    const p = worldPixel(lat, lon, view.zoom);
    const c = worldPixel(view.lat, view.lon, view.zoom);
    await page.mouse.click((frame.left + frame.right) / 2 + p.x - c.x, (frame.top + frame.bottom) / 2 + p.y - c.y);
    await page.waitForSelector('#results li');
    await page.mouse.move(1, 1); // no hover highlight on the badge
    await mapSettled(page);
    // the venue is in the answer
    expect(await page.locator(`#results > li[data-id="${target.id}"]`).count(), target.name).toBe(1);
    const pins = await page.$$eval('#map .person-marker', (nodes) => nodes.map((n) => n.getBoundingClientRect()).map((b) => ({ left: b.left, top: b.top, right: b.right, bottom: b.bottom })));
    const badges = await page.$$eval('#map .rank-badge, #map .cluster-badge', (nodes) => nodes.map((n) => n.getBoundingClientRect()).map((b) => ({ left: b.left, top: b.top, right: b.right, bottom: b.bottom })));
    // points of a badge (inside its rounded outline, off its white rim) that a pin's box covers
    const covered: { x: number; y: number }[] = [];
    for (const b of badges) {
      const cx = (b.left + b.right) / 2;
      const cy = (b.top + b.bottom) / 2;
      const r = (b.right - b.left) / 2 - 4;
      for (const pin of pins) {
        for (let x = Math.ceil(Math.max(b.left, pin.left)); x < Math.min(b.right, pin.right); x += 3) {
          for (let y = Math.ceil(Math.max(b.top, pin.top)); y < Math.min(b.bottom, pin.bottom); y += 3) if (Math.hypot(x - cx, y - cy) <= r) covered.push({ x, y });
        }
      }
    }
    // the pin stands on the venue it was clicked onto: there is something to look at
    expect(covered.length).toBeGreaterThan(0);
    const PIN: [number, number, number] = [0x6d, 0x28, 0xd9];
    const purple: { x: number; y: number }[] = [];
    for (const at of covered.slice(0, 60)) {
      const c = onePixelRgb(await page.screenshot({ clip: { ...at, width: 1, height: 1 } }));
      if (c.every((v, i) => Math.abs(v - PIN[i]!) <= 12)) purple.push(at);
    }
    expect(purple, `pin colour over a badge at ${JSON.stringify(purple)}`).toEqual([]);
    await page.close();
  });
});
