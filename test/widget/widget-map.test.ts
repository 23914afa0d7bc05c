/**
 * The widget's map in headless Chromium (issue 20): after a find, a meet-up and a route
 * search on the fixtures, every person, every result and the whole circle or corridor is
 * inside the visible map; result N and marker N highlight each other; dense results are
 * grouped; the offline base draws land, sea and coastlines and labels places; an axe-core
 * scan finds no serious or critical violation; and no request leaves the loopback server.
 *
 * Oracles are independent of the page's code: positions are read from the page's layout
 * (bounding boxes), the base map's colours from screenshot pixels at points placed with the
 * slippy-map formula, the network log from the browser.
 * Screenshots go to test-output/widget/; WIDGET_README_SCREENSHOT=1 also rewrites the
 * pictures in docs/ (widget.png, widget-phone.png, widget-route.png).
 */
import { readFileSync } from 'node:fs';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumAvailable } from './support/browser.js';
import { boxes, drawnPoints, inside, mapBox, mapSettled, shownRanks, type Box } from './support/map-dom.js';
import { onePixelRgb } from './support/png-pixel.js';
import { addPersonByName, drawRouteAround } from './support/widget-actions.js';
import { FIXTURES } from './support/widget-server.js';
import { SHOTS, widgetSession } from './support/widget-session.js';
const DOCS = process.env.WIDGET_README_SCREENSHOT === '1';
/** The offline base's colours (src/widget/page/base-map.ts, widget.css --sea). */
const LAND: [number, number, number] = [0xf3, 0xef, 0xe6];
const SEA: [number, number, number] = [0xcf, 0xe0, 0xec];

/**
 * The venues' own image URLs in the fixture file: the one kind of third-party request the
 * page makes by design (a venue's photos in its detail panel), never a map request.
 */
const venueImages = new Set(
  readFileSync(FIXTURES, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .flatMap((line) => {
      const venue = JSON.parse(line) as { images?: { url: string }[]; mainImageUrl?: string };
      return [...(venue.images ?? []).map((image) => image.url), ...(venue.mainImageUrl === undefined ? [] : [venue.mainImageUrl])];
    }),
);

/** Slippy-map world pixel of a point at `zoom` (256 x 2^zoom pixels for the world). */
function worldPixel(lat: number, lon: number, zoom: number): { x: number; y: number } {
  const size = 256 * 2 ** zoom;
  const phi = (lat * Math.PI) / 180;
  return { x: ((lon + 180) / 360) * size, y: ((1 - Math.log(Math.tan(phi) + 1 / Math.cos(phi)) / Math.PI) / 2) * size };
}

describe.skipIf(!chromiumAvailable)('widget map in headless Chromium', () => {
  const session = widgetSession();
  /** Every URL any page requested, and every Content-Security-Policy complaint. */
  const requests: string[] = [];
  const cspViolations: string[] = [];

  function openWidget(viewport = { width: 1200, height: 800 }): Promise<Page> {
    return session.openWidget({
      viewport,
      onPage: (page) => {
        page.on('request', (r) => requests.push(r.url()));
        page.on('console', (m) => {
          if (/Content Security Policy/i.test(m.text())) cspViolations.push(m.text());
        });
      },
    });
  }

  /**
   * Adds London by name, zooms in twice and adds two people by clicks near the map's edges
   * (as a person would): the 1 km circle is then wider than the view, which must follow.
   */
  async function meetUp(page: Page): Promise<void> {
    await addPersonByName(page, 'London');
    for (let i = 0; i < 2; i++) {
      await page.click('#zoom-in');
      await mapSettled(page);
    }
    const map = (await page.locator('#map').boundingBox())!;
    await page.mouse.click(map.x + map.width * 0.85, map.y + map.height * 0.8);
    await page.mouse.click(map.x + map.width * 0.12, map.y + map.height * 0.9);
    await page.waitForSelector('#map path.radius');
    await page.waitForSelector('#results > li');
  }

  /** Every result (1..n) on the map, each drawn inside the visible map. Returns what is not. */
  async function resultsOutside(page: Page, frame: Box): Promise<string[]> {
    const n = await page.locator('#results > li').count();
    const shown = await shownRanks(page);
    const problems: string[] = [];
    for (let rank = 1; rank <= n; rank++) {
      const where = shown.filter((s) => s.rank === rank);
      if (where.length !== 1) problems.push(`result ${rank} drawn ${where.length} times`);
      else if (!inside(where[0]!.box, frame)) problems.push(`result ${rank} at ${JSON.stringify(where[0]!.box)}`);
    }
    return problems;
  }

  async function everythingInView(page: Page, mode: 'find' | 'meet' | 'route'): Promise<string[]> {
    await mapSettled(page);
    const frame = await mapBox(page);
    const problems = await resultsOutside(page, frame);
    if (mode === 'meet') {
      for (const b of await boxes(page, '#map .person-marker, #map .centre-marker, #map path.radius', 'aria-label')) {
        if (!inside(b, frame)) problems.push(`${b.label || 'circle'} at ${JSON.stringify(b)}`);
      }
    }
    if (mode === 'route') {
      // the corridor is the route stroked with round caps: its extremes are discs of half
      // its width around the vertices
      const halfWidth = Number(await page.getAttribute('#map path.corridor', 'stroke-width')) / 2;
      for (const v of await drawnPoints(page, '#map path.route-point')) {
        const disc = { left: v.x - halfWidth, right: v.x + halfWidth, top: v.y - halfWidth, bottom: v.y + halfWidth };
        if (!inside(disc, frame)) problems.push(`corridor around ${v.lat},${v.lon}: ${JSON.stringify(disc)}`);
      }
    }
    return problems;
  }

  async function axeSeriousOrCritical(page: Page): Promise<string[]> {
    const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    expect(result.passes.map((rule) => rule.id)).toEqual(expect.arrayContaining(['color-contrast', 'button-name', 'label'])); // the scan ran
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((node) => node.target.join(' ')).join(', ')}`);
  }

  /** Ranks of the map's highlighted venue marker or group. */
  async function highlightedRanks(page: Page): Promise<number[][]> {
    return page.$$eval('#map .highlighted', (nodes) =>
      nodes.map((n) => (n.getAttribute('data-rank') ?? n.querySelector('[data-ranks]')?.getAttribute('data-ranks') ?? '').split(' ').map(Number)),
    );
  }

  it('find: the view fits all 20 results, grouping the dense ones at low zoom', async () => {
    const page = await openWidget();
    await page.fill('#find-q', 'nando');
    await page.waitForSelector('#results > li');
    await expect.poll(() => everythingInView(page, 'find'), { timeout: 10_000 }).toEqual([]);
    // the fixture's Nando's span New York and Britain: the British ones share a group
    const groups = await page.locator('#map .venue-cluster').count();
    expect(groups).toBeGreaterThan(0);
    expect(await page.locator('#map .venue-marker').count()).toBeLessThan(20);
    await page.screenshot({ path: `${SHOTS}/map-find.png` });
    await page.close();
  });

  it('meet up: people, centre, circle and results in view after the search; result 3 and marker 3 highlight each other; axe finds nothing serious', async () => {
    const page = await openWidget();
    await meetUp(page);
    await expect.poll(() => everythingInView(page, 'meet'), { timeout: 10_000 }).toEqual([]);
    expect(await page.locator('#map .person-marker').count()).toBe(3);

    // hovering result 3 highlights marker 3 (or the group drawn for it), and only it
    await page.hover('#results > li:nth-child(3)');
    await expect.poll(() => highlightedRanks(page)).toEqual([expect.arrayContaining([3])]);
    expect(await page.getAttribute('#results > li:nth-child(3)', 'class')).toContain('highlighted');
    const own = await page.locator('#map .venue-marker[data-rank="3"]').count();
    if (own === 1) expect(await highlightedRanks(page)).toEqual([[3]]);
    // focusing result 4's button moves the highlight to marker 4
    await page.focus('#results > li:nth-child(4) button');
    await expect.poll(() => highlightedRanks(page)).toEqual([expect.arrayContaining([4])]);
    await page.locator('#results > li:nth-child(4) button').blur();
    await page.mouse.move(5, 5);
    await expect.poll(() => highlightedRanks(page)).toEqual([]);

    // the reverse: zoom in on marker 3 (the wheel zooms around the cursor) until it stands alone, then hover it
    for (let i = 0; i < 6; i++) {
      const free = await page.evaluate(() => {
        const marker = document.querySelector('#map .venue-marker[data-rank="3"]');
        if (marker === null) return false;
        const r = marker.getBoundingClientRect();
        return marker.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2));
      });
      if (free) break;
      const where = (await shownRanks(page)).find((s) => s.rank === 3)!.box;
      await page.mouse.move((where.left + where.right) / 2, (where.top + where.bottom) / 2);
      await page.mouse.wheel(0, -240);
      await mapSettled(page);
      await page.waitForTimeout(100); // the wheel handler's debounce
      await mapSettled(page);
    }
    await page.hover('#map .venue-marker[data-rank="3"]');
    await expect.poll(() => page.$$eval('#results > li.highlighted', (n) => n.map((e) => Array.from(e.parentElement!.children).indexOf(e) + 1))).toEqual([3]);
    expect(await highlightedRanks(page)).toEqual([[3]]);
    // and by keyboard: a focused marker is a named button that highlights its result
    await page.focus('#map .venue-marker[data-rank="3"]');
    expect(await page.getAttribute('#map .venue-marker[data-rank="3"]', 'role')).toBe('button');
    expect(await page.getAttribute('#map .venue-marker[data-rank="3"]', 'aria-label')).toBe(`3. ${await page.textContent('#results > li:nth-child(3) .name')}: show details and menu`);
    await page.keyboard.press('Enter');
    await page.waitForSelector('#details .menus');
    expect(await page.textContent('#details-name')).toBe(await page.textContent('#results > li:nth-child(3) .name'));
    // the panel's photos load lazily (and a photo that fails is removed): bring the gallery
    // into view and wait until Chromium has asked for one, so that the network-log test below
    // sees them whatever the machine's pace
    if ((await page.locator('#details .gallery').count()) > 0) {
      await page.locator('#details .gallery').scrollIntoViewIfNeeded();
      await expect.poll(() => requests.some((url) => venueImages.has(url)), { timeout: 10_000 }).toBe(true);
    }
    await page.keyboard.press('Escape');

    await page.click('#zoom-fit');
    await expect.poll(() => everythingInView(page, 'meet'), { timeout: 10_000 }).toEqual([]);
    await page.mouse.move(5, 5);
    expect(await axeSeriousOrCritical(page)).toEqual([]);
    // a result's accessible name (Chromium's accessibility tree) says everything the result
    // shows: its name, kind, distance and open state, then what pressing it does
    const first = page.locator('#results > li:nth-child(1) > button');
    const spoken = (await first.ariaSnapshot()).replace(/''/g, "'"); // YAML doubles a quote
    for (const shown of await first.locator('.name, .facts > span').allTextContents()) expect(spoken).toContain(shown);
    expect(spoken).toContain('show details and menu');
    await page.$eval('.side', (side) => side.scrollTo(0, 0));
    await page.screenshot({ path: `${SHOTS}/map-meet-desktop.png` });
    if (DOCS) await page.screenshot({ path: 'docs/widget.png' });
    await page.close();
  });

  it('route: the route, the whole corridor and the results are in view after the Search button', async () => {
    const page = await openWidget();
    // the last point near the map's edge: the view has to move to keep the corridor in
    await drawRouteAround(page, 'Manchester', (map) => [[-250, -150], [-20, 10], [map.width / 2 - 70, 150]]);
    await page.waitForSelector('#map path.corridor');
    await page.waitForSelector('#results > li');
    // route clicks never move the view (issue 32): the fit comes when the user asks for it
    const searched = page.waitForResponse((r) => r.url().includes('/v1/search/'));
    await page.click('#search-button');
    await searched;
    await expect.poll(() => everythingInView(page, 'route'), { timeout: 10_000 }).toEqual([]);
    expect(await page.locator('#map path.route-point').count()).toBe(3);
    await page.screenshot({ path: `${SHOTS}/map-route.png` });
    if (DOCS) await page.screenshot({ path: 'docs/widget-route.png' });
    await page.close();
  });

  it('issue 32: route mode: clicking route points never moves the map, so each point is drawn where it was clicked, even after searches', async () => {
    const page = await openWidget();
    await addPersonByName(page, 'Manchester');
    await page.check('input[name="mode"][value="route"]');
    await mapSettled(page);
    const map = (await page.locator('#map').boundingBox())!;
    const clicks = [[-250, -150], [-20, 10], [map.width / 2 - 70, 150], [-300, 160]].map(([dx, dy]) => ({ x: map.x + map.width / 2 + dx!, y: map.y + map.height / 2 + dy! }));
    for (const [i, click] of clicks.entries()) {
      // one click at a time, each after the search the previous one started has been shown
      const searched = i === 0 ? undefined : page.waitForResponse((r) => r.url().includes('/v1/search/'));
      await page.mouse.click(click.x, click.y);
      await expect.poll(() => page.locator('#map path.route-point').count()).toBe(i + 1);
      if (searched !== undefined) {
        await searched;
        await page.waitForSelector('#results-status:has-text("found")');
        await page.waitForTimeout(300); // any fit's animation would have started
        await mapSettled(page);
      }
    }
    const drawn = await drawnPoints(page, '#map path.route-point');
    expect(drawn).toHaveLength(clicks.length);
    drawn.forEach((v, i) => {
      expect(Math.abs(v.x - clicks[i]!.x), `point ${i + 1} x`).toBeLessThan(1.5);
      expect(Math.abs(v.y - clicks[i]!.y), `point ${i + 1} y`).toBeLessThan(1.5);
    });
    // the fit button still frames the whole corridor
    await page.click('#zoom-fit');
    await expect.poll(() => everythingInView(page, 'route'), { timeout: 10_000 }).toEqual([]);
    await page.close();
  });

  it('meet up: people clicked onto a map that already shows the whole answer are drawn where they were clicked, even after searches (the view moves only to show what would be hidden)', async () => {
    const page = await openWidget();
    await addPersonByName(page, 'Manchester');
    // zoomed out far enough that four people, the 1 km circle and its venues fit with room to spare
    for (let i = 0; i < 2; i++) {
      await page.click('#zoom-out');
      await mapSettled(page);
    }
    const map = (await page.locator('#map').boundingBox())!;
    const clicks = [[-60, -40], [50, 30], [-30, 60]].map(([dx, dy]) => ({ x: map.x + map.width / 2 + dx!, y: map.y + map.height / 2 + dy! }));
    for (const [i, click] of clicks.entries()) {
      const searched = page.waitForResponse((r) => r.url().includes('/v1/search/'));
      await page.mouse.click(click.x, click.y);
      await expect.poll(() => page.locator('#map .person-marker').count()).toBe(i + 2);
      await searched;
      await page.waitForSelector('#results-status:has-text("found")');
      await page.waitForTimeout(300); // any fit's animation would have started
      await mapSettled(page);
    }
    const drawn = await drawnPoints(page, '#map .person-marker');
    for (const [i, click] of clicks.entries()) {
      const nearest = Math.min(...drawn.map((p) => Math.hypot(p.x - click.x, p.y - click.y)));
      expect(nearest, `person ${i + 2}, clicked at ${click.x},${click.y}`).toBeLessThan(1.5);
    }
    expect(await everythingInView(page, 'meet')).toEqual([]);
    await page.close();
  });

  it('offline base: land and sea where Natural Earth has them, coastlines drawn, the biggest places labelled, from this server only', async () => {
    const page = await openWidget();
    await page.waitForSelector('#map[data-base-drawn]');
    expect(await page.getAttribute('#map', 'data-base')).toBe('offline');
    expect(Number(await page.getAttribute('#map', 'data-base-drawn'))).toBeGreaterThan(100); // coastline lines
    await mapSettled(page);
    const frame = await mapBox(page);
    // the first view frames the venues' extent (issue 32): on the fixtures, Britain; its
    // centre and zoom as the page records them on the map
    const view = await page.$eval('#map', (el) => ({ lat: Number(el.getAttribute('data-centre-lat')), lon: Number(el.getAttribute('data-centre-lon')), zoom: Number(el.getAttribute('data-zoom')) }));
    expect(view.zoom).toBeGreaterThanOrEqual(5);
    expect(view.zoom).toBeLessThanOrEqual(7);
    const centre = worldPixel(view.lat, view.lon, view.zoom);
    const colourAt = async (lat: number, lon: number): Promise<[number, number, number]> => {
      const p = worldPixel(lat, lon, view.zoom);
      const x = Math.round((frame.left + frame.right) / 2 + p.x - centre.x);
      const y = Math.round((frame.top + frame.bottom) / 2 + p.y - centre.y);
      expect(inside({ left: x, right: x, top: y, bottom: y }, frame), `${lat},${lon} in the first view`).toBe(true);
      return onePixelRgb(await page.screenshot({ clip: { x, y, width: 1, height: 1 } }));
    };
    const near = (c: [number, number, number], want: [number, number, number]) => c.every((v, i) => Math.abs(v - want[i]!) <= 3);
    // inland (mid Wales, Perthshire, Northamptonshire) and open sea (North Sea, English Channel, Irish Sea)
    for (const [lat, lon] of [[52.3, -3.6], [56.5, -4.0], [52.3, -0.9]] as const) expect(near(await colourAt(lat, lon), LAND), `${lat},${lon} land`).toBe(true);
    for (const [lat, lon] of [[54.5, 1.5], [50.2, -1.0], [54.0, -5.3]] as const) expect(near(await colourAt(lat, lon), SEA), `${lat},${lon} sea`).toBe(true);
    // at a country's zoom only the larger places are named (at most 80 are drawn)
    await expect.poll(() => page.locator('#map .place-label').allTextContents()).toEqual(expect.arrayContaining(['London', 'Dublin', 'Birmingham']));
    expect(await page.locator('#map .place-label').count()).toBeLessThan(60);
    await page.screenshot({ path: `${SHOTS}/map-offline-base.png` });
    await page.close();
  });

  it('phone width (390 px): meet-up results in view, each person\'s travel readable without sideways scrolling; axe finds nothing serious', async () => {
    const page = await openWidget({ width: 390, height: 844 });
    await meetUp(page);
    await expect.poll(() => everythingInView(page, 'meet'), { timeout: 10_000 }).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const travel = await page.$$eval('#results > li:first-child .travel li', (items) =>
      items.map((li) => ({ text: li.textContent ?? '', right: li.getBoundingClientRect().right, size: parseFloat(getComputedStyle(li).fontSize) })),
    );
    expect(travel).toHaveLength(3);
    for (const line of travel) {
      expect(line.right, line.text).toBeLessThanOrEqual(390);
      expect(line.size, line.text).toBeGreaterThanOrEqual(12);
    }
    expect(await axeSeriousOrCritical(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/map-meet-phone.png` });
    if (DOCS) await page.screenshot({ path: 'docs/widget-phone.png' });
    await page.close();
  });

  it('no map request left the machine: every request went to the loopback server but a venue\'s own photos; no CSP violation', () => {
    expect(requests.length).toBeGreaterThan(20);
    const foreign = requests.filter((url) => !url.startsWith(`${session.server.base}/`) && url !== 'about:blank');
    // the detail panel opened above shows the venue's photos (fixture URLs); nothing else leaves
    expect(foreign.length).toBeGreaterThan(0);
    expect(foreign.filter((url) => !venueImages.has(url))).toEqual([]);
    // the offline base and the labels came from this server
    expect(requests.some((url) => /\/v1\/widget\/assets\/countries-50m\.[0-9a-f]{10}\.json$/.test(url))).toBe(true);
    expect(requests.some((url) => url.endsWith('/v1/widget/places.json'))).toBe(true);
    expect(cspViolations).toEqual([]);
  });
});
