/**
 * The widget end to end in headless Chromium (Debian's package, playwright-core) against the
 * real service on loopback: what a person sees, asserted on the page's text and map.
 * Oracles are independent of the page's code: names and menus read straight from the fixture
 * file, distances from turf, the map scale measured between two drawn markers with turf.
 * The map's fitting, highlighting, base map and accessibility are in widget-map.test.ts.
 * Each test saves a screenshot to test-output/widget/.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { centroid, distance, point, points } from '@turf/turf';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumAvailable } from './support/browser.js';
import { drawnPoints, mapSettled, shownRanks, type DrawnPoint } from './support/map-dom.js';
import { addPersonByName, drawRouteAround, meetUpTwo, setWeight } from './support/widget-actions.js';
import { FIXTURES, startWidgetServer } from './support/widget-server.js';
import { SHOTS, widgetSession } from './support/widget-session.js';

interface FixtureVenue {
  id: string;
  location: { coordinates: [number, number] };
  name: string;
  vibes?: string[];
  regularOpeningHours?: { days: string[]; timeSlots: { open: string; close: string; isClosed: boolean; closeNextDay: boolean }[] }[];
  menus?: { name: string; sections: { name: string; items: { name: string; price?: number }[] }[] }[];
}
const fixtureVenues: FixtureVenue[] = readFileSync(FIXTURES, 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as FixtureVenue);

/**
 * Hand oracle: does the venue's weekly table list Tuesday with a slot holding 20:00
 * (open <= 20:00 < close, or a slot running past midnight)? Venues in the route test are in
 * Manchester, where 20:00 UTC on 24 November is 20:00 local time.
 */
function openTuesdayAt2000(venue: FixtureVenue): boolean {
  return (venue.regularOpeningHours ?? []).some(
    (group) => group.days.includes('Tue') && group.timeSlots.some((t) => !t.isClosed && t.open <= '20:00' && (t.closeNextDay || '20:00' < t.close)),
  );
}

/** Ground metres between two [lat, lon] points by turf (its [lon, lat] order). */
function meters(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  return distance(point([a.lon, a.lat]), point([b.lon, b.lat]), { units: 'meters' });
}

/** "350 m" / "1.2 km" as metres (the page's rounding: 1 m, or 100 m above 1 km). */
function parseDistance(text: string): number {
  const m = /([\d.]+) (m|km)/.exec(text);
  if (!m) throw new Error(`no distance in ${JSON.stringify(text)}`);
  return Number(m[1]) * (m[2] === 'km' ? 1000 : 1);
}

/** Metres per screen pixel, measured between the two farthest-apart markers (turf distance / pixel distance). */
function measuredMetersPerPixel(markers: readonly DrawnPoint[]): number {
  let best = { px: 0, m: 0 };
  for (const a of markers) {
    for (const b of markers) {
      const px = Math.hypot(a.x - b.x, a.y - b.y);
      if (px > best.px) best = { px, m: meters(a, b) };
    }
  }
  return best.m / best.px;
}

describe.skipIf(!chromiumAvailable)('widget in headless Chromium', () => {
  const session = widgetSession();
  const openWidget = (key?: string): Promise<Page> => session.openWidget(key === undefined ? {} : { key });

  it('find by name: typing "nando" lists only Nando\'s, counts all 43 in the fixtures, debounced to one request, markers on the map', async () => {
    const page = await openWidget();
    // the page's "Loading the widget…" is gone once the script runs
    expect(await page.textContent('#results-status')).toBe('');
    const finds: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/v1/find')) finds.push(r.url());
    });
    await page.locator('#find-q').pressSequentially('nando', { delay: 40 });
    await page.waitForSelector('#results li');
    const brute = fixtureVenues.filter((v) => v.name.toLowerCase().includes('nando')).length;
    await expect.poll(() => page.textContent('#results-status')).toBe(`${brute} venues found; showing the best 20.`);
    const names = await page.$$eval('#results li .name', (n) => n.map((e) => e.textContent ?? ''));
    expect(names).toHaveLength(20);
    for (const name of names) expect(name.toLowerCase()).toContain('nando');
    // every result is on the map, by its own numbered marker or inside a group
    await expect.poll(async () => (await shownRanks(page)).map((s) => s.rank).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(finds).toHaveLength(1); // five keystrokes 40 ms apart, one request after the pause
    expect(new URL(finds[0]!).searchParams.get('q')).toBe('nando');
    await page.screenshot({ path: `${SHOTS}/find-by-name.png` });
    await page.close();
  });

  it('a venue without opening hours reads "Hours unknown", not "Closed", in the list and in its details (unknown is not closed)', async () => {
    const page = await openWidget();
    await page.fill('#find-q', 'stag');
    await page.waitForSelector('#results li');
    const rows = await page.$$eval('#results li', (items) =>
      items.map((li) => ({ id: li.getAttribute('data-id') ?? '', text: li.querySelector('.open-state')?.textContent ?? '', className: li.querySelector('.open-state')?.className ?? '' })),
    );
    const hoursKnown = (id: string) => (fixtureVenues.find((v) => v.id === id)!.regularOpeningHours ?? []).length > 0;
    expect(rows.filter((r) => !hoursKnown(r.id)).length).toBeGreaterThan(0);
    expect(rows.filter((r) => hoursKnown(r.id)).length).toBeGreaterThan(0);
    for (const row of rows) {
      if (hoursKnown(row.id)) expect(row.text, row.id).not.toBe('Hours unknown');
      else expect(row, row.id).toMatchObject({ text: 'Hours unknown', className: 'open-state unknown' });
    }
    const unknown = rows.findIndex((r) => !hoursKnown(r.id));
    await page.locator('#results li button').nth(unknown).click();
    await expect.poll(() => page.textContent('#details .open-state')).toBe('Hours unknown');
    await page.close();
  });

  it('meet up: two people from one place, and a map click after a removal, get labels of their own; the searches are answered (no 400)', async () => {
    const page = await openWidget();
    const answers: Array<{ status: number; labels: string[] }> = [];
    page.on('response', async (r) => {
      if (r.url().includes('/v1/search')) answers.push({ status: r.status(), labels: (r.request().postDataJSON() as { locations: { label: string }[] }).locations.map((l) => l.label) });
    });
    await addPersonByName(page, 'London');
    await page.fill('#place-name', 'London');
    await page.click('#place-form button[type="submit"]');
    await expect.poll(() => page.locator('#locations li').count()).toBe(2);
    const map = (await page.locator('#map').boundingBox())!;
    await page.mouse.click(map.x + map.width / 2 + 110, map.y + map.height / 2 + 50); // Person 3
    await page.mouse.click(map.x + map.width / 2 - 90, map.y + map.height / 2 + 110); // Person 4
    await expect.poll(() => page.locator('#locations li').count()).toBe(4);
    await page.click('#locations li:nth-child(3) button.remove'); // Person 3 goes: three people again
    await page.mouse.click(map.x + map.width / 2 - 60, map.y + map.height / 2 - 80); // the 4th person, but Person 4 is taken
    await expect.poll(() => page.locator('#locations li').count()).toBe(4);
    const labels = await page.$$eval('#locations .person-name', (n) => n.map((e) => e.textContent));
    expect(labels).toEqual(['London', 'London (2)', 'Person 4', 'Person 5']);
    await expect.poll(() => answers.some((a) => a.labels.length === 4)).toBe(true);
    expect(answers.filter((a) => a.status !== 200)).toEqual([]);
    expect(await page.locator('#notice').isVisible()).toBe(false);
    await page.close();
  });

  it('meet up: a weight field searches what it shows: empty is 1, -1 is refused in words (no search), two zeros are refused in words', async () => {
    const page = await openWidget();
    const sent: Array<Array<number | undefined>> = [];
    page.on('request', (r) => {
      if (r.url().includes('/v1/search')) sent.push((r.postDataJSON() as { locations: { weight?: number }[] }).locations.map((l) => l.weight));
    });
    await meetUpTwo(page);
    const weight = (k: number) => page.locator('#locations li').nth(k).locator('input[type="number"]');
    const set = (k: number, value: string) => setWeight(page, k, value);
    // 2 then empty: the search sends 2, then no weight (the API's 1)
    await set(0, '2');
    await expect.poll(() => sent.at(-1)).toEqual([2, undefined]);
    await set(0, '');
    await expect.poll(() => sent.at(-1)).toEqual([undefined, undefined]);
    expect(await weight(0).inputValue()).toBe('');
    // -1: shown as typed, marked invalid with a message, and nothing searched
    const before = sent.length;
    await set(0, '-1');
    await expect.poll(() => weight(0).getAttribute('aria-invalid')).toBe('true');
    expect(await weight(0).inputValue()).toBe('-1');
    expect(await page.locator('#locations li').nth(0).locator('.field-error').textContent()).toBe('The weight of London must be 0, or a number from 0.000001 to 1,000,000; -1 is below 0.');
    await expect.poll(() => page.textContent('#results-status')).toBe('No search until every weight is valid.');
    // beyond the API's range: the same, in the field, not a 400 from the service
    await set(0, '2000000');
    expect(await page.locator('#locations li').nth(0).locator('.field-error').textContent()).toBe('The weight of London must be 0, or a number from 0.000001 to 1,000,000; 2000000 is out of range.');
    await set(1, '0.0000001');
    await expect.poll(() => weight(1).getAttribute('aria-invalid')).toBe('true');
    await set(1, '1');
    // both 0: refused in words, not sent
    await set(0, '0');
    await set(1, '0');
    await expect.poll(() => page.textContent('#results-status')).toBe('At least one person needs a weight above 0.');
    await page.waitForTimeout(500); // past the search debounce
    expect(sent.length).toBe(before);
    expect(await weight(0).getAttribute('aria-invalid')).toBeNull();
    await page.close();
  });

  it('meet up: a search still in flight when a weight turns invalid does not show its answer afterwards', async () => {
    const page = await openWidget();
    await meetUpTwo(page);
    // the next search's answer is held back 1.5 s
    let held = 0;
    await page.route('**/v1/search/**', async (route) => {
      held++;
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue().catch(() => {}); // aborted by the page meanwhile
    });
    await setWeight(page, 0, '2');
    await expect.poll(() => held).toBe(1);
    await setWeight(page, 0, '-1');
    await expect.poll(() => page.textContent('#results-status')).toBe('No search until every weight is valid.');
    await page.waitForTimeout(2000); // past the held answer
    expect(await page.locator('#results li').count()).toBe(0);
    expect(await page.textContent('#results-status')).toBe('No search until every weight is valid.');
    await page.close();
  });

  it('meet up: three people (one by place name, two by map clicks) give results with the centre and the radius circle drawn to scale', async () => {
    const page = await openWidget();
    await addPersonByName(page, 'London');
    const map = (await page.locator('#map').boundingBox())!;
    await page.mouse.click(map.x + map.width / 2 + 110, map.y + map.height / 2 + 50);
    await page.mouse.click(map.x + map.width / 2 - 90, map.y + map.height / 2 + 110);
    await page.waitForSelector('#map path.radius');
    await page.waitForSelector('#results li');
    await mapSettled(page);
    expect(await page.locator('#locations li').count()).toBe(3);
    expect(await page.locator('#map .person-marker').count()).toBe(3);

    const people = await drawnPoints(page, '#map .person-marker');
    // each pin is named by its rank and place: the person added by name by that name, those
    // added by a click by their point, as the list shows it (audit 73e F1: "Person 2: Person 2")
    const names = await page.$$eval('#map .person-marker', (nodes) => nodes.map((n) => n.getAttribute('aria-label')));
    expect(names).toEqual(['Person 1: London', ...people.slice(1).map((p, i) => `Person ${i + 2}: ${p.lat.toFixed(4)}, ${p.lon.toFixed(4)}`)]);
    const [centre] = await drawnPoints(page, '#map .centre-marker');
    const mean = centroid(points(people.map((p) => [p.lon, p.lat]))).geometry.coordinates;
    // equal weights over ~1 km: the geodesic midpoint is within a metre of the plain mean
    expect(meters(centre!, { lat: mean[1]!, lon: mean[0]! })).toBeLessThan(3);

    const mpp = measuredMetersPerPixel(people);
    const radiusPx = (await page.$eval('#map path.radius', (e) => e.getBoundingClientRect().width)) / 2;
    expect(radiusPx * mpp).toBeGreaterThan(1000 * 0.985);
    expect(radiusPx * mpp).toBeLessThan(1000 * 1.015);

    const status = (await page.textContent('#results-status')) ?? '';
    expect(status).toMatch(/^\d+ venues found/);
    const distances = await page.$$eval('#results li .distance', (n) => n.map((e) => e.textContent ?? ''));
    expect(distances.length).toBeGreaterThan(0);
    for (const text of distances) {
      expect(text).toContain('from the centre');
      expect(parseDistance(text)).toBeLessThanOrEqual(1000);
    }
    expect(await page.locator('#results li .score-parts dt').first().textContent()).toBe('Genre');
    const travel = await page.locator('#results li').first().locator('.travel li').allTextContents();
    expect(travel).toHaveLength(3);
    ['London', 'Person 2', 'Person 3'].forEach((who, i) => expect(travel[i]).toMatch(new RegExp(`^${who} \\d+ min \\([\\d.]+ k?m\\)$`)));

    // weights: London counts three times; the centre moves to the weighted mean
    const weighted = page.waitForResponse((r) => r.url().includes('/v1/search/') && (r.request().postData() ?? '').includes('"weight":3'));
    await page.fill('#locations li:first-child input[type="number"]', '3');
    await page.press('#locations li:first-child input[type="number"]', 'Enter');
    await page.locator('#locations li:first-child input[type="number"]').blur();
    expect((await weighted).status()).toBe(200);
    await expect
      .poll(async () => {
        const c = await page.$eval('#map .centre-marker', (e) => ({ lat: Number(e.getAttribute('data-lat')), lon: Number(e.getAttribute('data-lon')) }));
        const w = [3, 1, 1];
        const lat = people.reduce((sum, p, i) => sum + w[i]! * p.lat, 0) / 5;
        const lon = people.reduce((sum, p, i) => sum + w[i]! * p.lon, 0) / 5;
        return meters(c, { lat, lon });
      })
      .toBeLessThan(3);

    // a soft preference: the Vibes part is 1 exactly for venues the fixture file marks "cosy"
    // (one vibe asked: met / asked is 1 or 0), and the list stays ordered by total score
    await page.click('#prefs summary');
    const searched = page.waitForResponse((r) => r.url().includes('/v1/search/') && (r.request().postData() ?? '').includes('"vibes":["cosy"]'));
    await page.check('input[name="vibe"][value="cosy"]');
    expect((await searched).status()).toBe(200);
    await page.click('#prefs summary');
    await expect.poll(() => page.$$eval('#results li .score-parts > div:nth-child(5) > dd', (n) => n.length)).toBeGreaterThan(0);
    const scored = await page.$$eval('#results > li', (items) =>
      items.map((li) => ({
        id: li.getAttribute('data-id') ?? '',
        vibes: li.querySelector('.score-parts > div:nth-child(5) > dd')?.textContent ?? '',
        total: Number(/Score ([\d.]+)/.exec(li.querySelector('.score-total')?.textContent ?? '')?.[1]),
      })),
    );
    expect(scored.length).toBeGreaterThan(0);
    for (const row of scored) {
      const cosy = (fixtureVenues.find((v) => v.id === row.id)?.vibes ?? []).includes('cosy');
      expect(row.vibes, row.id).toBe(cosy ? '1.00' : '0.00');
    }
    for (let i = 1; i < scored.length; i++) expect(scored[i]!.total).toBeLessThanOrEqual(scored[i - 1]!.total);
    expect(scored.some((r) => r.vibes === '1.00')).toBe(true);
    await page.screenshot({ path: `${SHOTS}/meet-up.png` });
    await page.close();
  });

  it('fair meet-up controls: fairness, quorum and a person\'s travel mode go into the search body; untouched, the body is the plain POINT search', async () => {
    const page = await openWidget();
    await addPersonByName(page, 'London');
    const plain = page.waitForRequest((r) => r.url().includes('/v1/search/'));
    const map = (await page.locator('#map').boundingBox())!;
    await page.mouse.click(map.x + map.width / 2 + 110, map.y + map.height / 2 + 50);
    await page.mouse.click(map.x + map.width / 2 - 90, map.y + map.height / 2 + 110);
    const plainBody = JSON.parse((await plain).postData()!) as { mode: unknown; locations: Record<string, unknown>[] };
    expect(plainBody.mode).toEqual({ mode: 'POINT', maxDistance: 1000 });
    for (const location of plainBody.locations) expect(location).not.toHaveProperty('travelMode');
    // the quorum choices follow the number of people
    expect(await page.$$eval('#quorum option', (o) => o.map((e) => e.textContent))).toEqual(['Everyone', 'The best placed 2 of 3', 'The best placed 1 of 3']);

    const fair = page.waitForRequest((r) => r.url().includes('/v1/search/') && /"quorum":2/.test(r.postData() ?? '') && /BICYCLE/.test(r.postData() ?? ''));
    await page.selectOption('#fairness', 'MIN_MAX');
    await page.selectOption('#quorum', '2');
    await page.selectOption('#locations li:nth-child(2) select.travel-mode', 'BICYCLE');
    const body = JSON.parse((await fair).postData()!) as { mode: unknown; locations: { label: string; travelMode?: string }[] };
    expect(body.mode).toEqual({ mode: 'POINT', maxDistance: 1000, fairness: 'MIN_MAX', quorum: 2 });
    expect(body.locations.map((l) => [l.label, l.travelMode])).toEqual([['London', undefined], ['Person 2', 'BICYCLE'], ['Person 3', undefined]]);
    expect(await page.getAttribute('#locations li:nth-child(2) select.travel-mode', 'aria-label')).toBe('How Person 2 travels');
    // with one person fewer, a quorum of 2 is everyone: the choice goes back to "Everyone"
    await page.click('#locations li:nth-child(3) .remove');
    expect(await page.inputValue('#quorum')).toBe('');
    expect(await page.$$eval('#quorum option', (o) => o.map((e) => e.textContent))).toEqual(['Everyone', 'The best placed 1 of 2']);
    await page.close();
  });

  it('fair meet-up: the group summary shown for each result (longest, total, spread, who was counted) is the API\'s for the same request, for MIN_MAX and for MIN_TOTAL with a quorum and travel modes', async () => {
    const page = await openWidget();
    await addPersonByName(page, 'London');
    const map = (await page.locator('#map').boundingBox())!;
    await page.mouse.click(map.x + map.width / 2 + 110, map.y + map.height / 2 + 50);
    await page.mouse.click(map.x + map.width / 2 - 90, map.y + map.height / 2 + 110);
    await page.waitForSelector('#results li');
    const labels = ['London', 'Person 2', 'Person 3'];

    // MIN_MAX, everyone counted
    const minMax = waitForSearch(page, (body) => body.mode.fairness === 'MIN_MAX');
    await page.selectOption('#fairness', 'MIN_MAX');
    await expectShownGroupsMatchApi(page, await minMax, labels, { quorum: 3, distanceWords: 'for the farthest counted person' });

    // MIN_TOTAL, the best placed 2 of 3, one person cycling and one by public transport
    const minTotal = waitForSearch(
      page,
      (body) => body.mode.fairness === 'MIN_TOTAL' && body.mode.quorum === 2 && body.locations[1]?.travelMode === 'BICYCLE' && body.locations[2]?.travelMode === 'TRANSIT',
    );
    await page.selectOption('#fairness', 'MIN_TOTAL');
    await page.selectOption('#quorum', '2');
    await page.selectOption('#locations li:nth-child(2) select.travel-mode', 'BICYCLE');
    await page.selectOption('#locations li:nth-child(3) select.travel-mode', 'TRANSIT');
    await expectShownGroupsMatchApi(page, await minTotal, labels, { quorum: 2, distanceWords: 'on average for those counted' });
    await page.screenshot({ path: `${SHOTS}/fair-meet-up.png` });
    await page.close();
  });

  interface SearchBody {
    mode: { fairness?: string; quorum?: number };
    locations: { travelMode?: string }[];
  }
  interface ApiGroup {
    maxMinutes: number;
    totalMinutes: number;
    spreadMinutes: number;
    counted: string[];
  }
  interface ApiAnswer {
    totalResults: number;
    establishments: { id: string; distanceMeters: number; group: ApiGroup; travel: Record<string, { durationMinutes: number }> }[];
  }

  /**
   * The page's search whose body passes `wanted`, once its answer has arrived: the request's
   * URL and body (the page's own answer is not the oracle).
   */
  async function waitForSearch(page: Page, wanted: (body: SearchBody) => boolean): Promise<{ url: string; body: string }> {
    const response = await page.waitForResponse((r) => r.url().includes('/v1/search/') && r.request().method() === 'POST' && wanted(JSON.parse(r.request().postData() ?? '{}') as SearchBody));
    expect(response.status()).toBe(200);
    await response.finished();
    return { url: response.url(), body: response.request().postData()! };
  }

  /**
   * The same request made directly to the API (the oracle), then the page's list read once
   * it shows that answer: per result, in order, the displayed longest trip, total and spread
   * (minutes, as numbers) equal the API's group, and the displayed "Counted" is "Everyone"
   * exactly when the API counted every person, else the API's counted labels. The distance
   * shown names what a fair mode's distanceMeters is (`distanceWords`) and is the API's, as
   * rounded for display ("350 m", or km to one decimal).
   */
  async function expectShownGroupsMatchApi(page: Page, request: { url: string; body: string }, labels: readonly string[], expected: { quorum: number; distanceWords: string }): Promise<void> {
    const response = await fetch(request.url, { method: 'POST', headers: { 'content-type': 'application/json', 'API-Key': session.publicKey }, body: request.body });
    expect(response.status).toBe(200);
    const api = (await response.json()) as ApiAnswer;
    expect(api.establishments.length).toBeGreaterThan(1);
    const ids = api.establishments.map((e) => e.id);
    await expect.poll(() => page.$$eval('#results > li', (items) => items.map((li) => li.getAttribute('data-id')))).toEqual(ids);
    expect(await page.textContent('#results-status')).toBe(`${api.totalResults} venues found${api.totalResults > ids.length ? `; showing the best ${ids.length}` : ''}.`);
    const shown = await page.$$eval('#results > li', (items) =>
      items.map((li) => {
        const list = li.querySelector('dl.group-summary');
        const fact = (key: string) => list?.querySelector(`.group-${key} dd`)?.textContent ?? '';
        const term = (key: string) => list?.querySelector(`.group-${key} dt`)?.textContent ?? '';
        return {
          distance: li.querySelector('.distance')?.textContent ?? '',
          label: list?.getAttribute('aria-label') ?? '',
          terms: ['max', 'total', 'spread', 'counted'].map(term),
          max: fact('max'),
          total: fact('total'),
          spread: fact('spread'),
          counted: fact('counted'),
        };
      }),
    );
    const minutes = (text: string): number => {
      const m = /^(\d+(?:\.\d)?) min$/.exec(text);
      if (!m) throw new Error(`not minutes: ${JSON.stringify(text)}`);
      return Number(m[1]);
    };
    shown.forEach((row, i) => {
      const group = api.establishments[i]!.group;
      const shownDistance = /^(\d+(?:\.\d)?) (m|km) (.+)$/.exec(row.distance);
      expect(shownDistance, row.distance).not.toBeNull();
      expect(shownDistance![3]).toBe(expected.distanceWords);
      const meters = api.establishments[i]!.distanceMeters;
      if (shownDistance![2] === 'm') expect(Number(shownDistance![1])).toBe(Math.round(meters));
      else expect(Math.abs(Number(shownDistance![1]) * 1000 - meters)).toBeLessThanOrEqual(50);
      expect(row.label).toBe('Trips for the group');
      expect(row.terms).toEqual(['Longest trip', 'In total', 'Trips differ by', 'Counted']);
      expect(minutes(row.max), ids[i]).toBe(group.maxMinutes);
      expect(minutes(row.total), ids[i]).toBe(group.totalMinutes);
      expect(minutes(row.spread), ids[i]).toBe(group.spreadMinutes);
      expect(group.counted).toHaveLength(expected.quorum);
      expect(row.counted === 'Everyone' ? labels : row.counted.split(', '), ids[i]).toEqual(group.counted);
      expect(row.counted === 'Everyone', ids[i]).toBe(group.counted.length === labels.length);
    });
  }

  it('route mode: three clicks draw the route and its corridor to scale; every result lies within the corridor', async () => {
    const page = await openWidget();
    await drawRouteAround(page, 'Manchester', () => [[-220, -140], [-20, 10], [200, 120]]);
    await expect.poll(() => page.textContent('#route-summary')).toMatch(/^3 route points, [\d.]+ km long\.$/);
    await page.waitForSelector('#map path.corridor');
    await page.waitForSelector('#results li');
    await mapSettled(page);
    expect(await page.locator('#map .person-marker').count()).toBe(0);
    expect(await page.locator('#map path.radius').count()).toBe(0);

    const vertices = await drawnPoints(page, '#map path.route-point');
    expect(vertices).toHaveLength(3);
    const mpp = measuredMetersPerPixel(vertices);
    const corridorPx = Number(await page.getAttribute('#map path.corridor', 'stroke-width'));
    expect((corridorPx / 2) * mpp).toBeGreaterThan(500 * 0.985);
    expect((corridorPx / 2) * mpp).toBeLessThan(500 * 1.015);
    const summaryKm = Number(/([\d.]+) km/.exec((await page.textContent('#route-summary')) ?? '')![1]);
    const turfKm = (meters(vertices[0]!, vertices[1]!) + meters(vertices[1]!, vertices[2]!)) / 1000;
    expect(Math.abs(summaryKm - turfKm)).toBeLessThan(0.06);

    const distances = await page.$$eval('#results li .distance', (n) => n.map((e) => e.textContent ?? ''));
    expect(distances.length).toBeGreaterThan(0);
    for (const text of distances) {
      expect(text).toContain('from the route');
      expect(parseDistance(text)).toBeLessThanOrEqual(500);
    }
    expect(await page.locator('#results li .along').count()).toBe(distances.length);

    // open at a chosen time (browser in Europe/London, GMT in November): Tuesday 20:00
    await page.click('#prefs summary');
    await page.selectOption('#open-mode', 'at');
    const timed = page.waitForResponse((r) => r.url().includes('/v1/search/') && (r.request().postData() ?? '').includes('"atTime":"2026-11-24T20:00:00Z"'));
    await page.fill('#open-at', '2026-11-24T20:00');
    const body = JSON.parse((await timed).request().postData()!) as { preferences: Record<string, unknown> };
    expect(body.preferences).toMatchObject({ openingConditions: { state: 'OPEN', atTime: '2026-11-24T20:00:00Z' }, nonCompromise: ['openingConditions'] });
    await expect.poll(() => page.$$eval('#results li .open-state', (n) => n.map((e) => e.textContent))).not.toContain('Closed');
    const ids = await page.$$eval('#results li', (n) => n.map((e) => e.getAttribute('data-id') ?? ''));
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) expect(openTuesdayAt2000(fixtureVenues.find((v) => v.id === id)!), id).toBe(true);
    await page.screenshot({ path: `${SHOTS}/route.png` });
    await page.close();
  });

  it('opening a venue shows its menu with prices in pounds (pence / 100) and the dietary responsibility notice; Escape closes it', async () => {
    const page = await openWidget();
    await page.fill('#find-q', 'nando');
    await page.waitForSelector('#results li');
    const id = (await page.getAttribute('#results li', 'data-id'))!;
    const venue = fixtureVenues.find((v) => v.id === id)!;
    const firstItem = venue.menus![0]!.sections[0]!.items.find((item) => item.price !== undefined)!;
    await page.click('#results li button');
    await page.waitForSelector('#details .menus .menu-item');
    expect(await page.textContent('#details-name')).toBe(venue.name);
    const item = page.locator('#details .menu-item', { hasText: firstItem.name }).first();
    expect(await item.locator('.price').textContent()).toBe(`£${(firstItem.price! / 100).toFixed(2)}`);
    expect(await page.textContent('#details .dietary-notice')).toContain('is your responsibility');
    expect(await page.locator('#details .menu h4').first().textContent()).toBe(venue.menus![0]!.name);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('details-name');
    await page.screenshot({ path: `${SHOTS}/menu.png` });
    await page.keyboard.press('Escape');
    expect(await page.locator('#details').isHidden()).toBe(true);
    await page.close();
  });

  it('keyboard only: mode by arrow keys, a person added by place name with Enter, another with Enter on the focused map after arrow-key panning', async () => {
    const page = await openWidget();
    await page.focus('input[name="mode"][value="find"]');
    await page.keyboard.press('ArrowRight'); // radio group: moves to "Meet up" and selects it
    expect(await page.isChecked('input[name="mode"][value="meet"]')).toBe(true);
    expect(await page.locator('#meet-panel').isVisible()).toBe(true);
    await page.focus('#place-name');
    await page.keyboard.type('Leeds');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#locations li');
    await mapSettled(page);
    await page.focus('#map');
    for (const key of ['ArrowRight', 'ArrowDown', 'Enter']) {
      await page.keyboard.press(key);
      await mapSettled(page);
    }
    await expect.poll(() => page.locator('#locations li').count()).toBe(2);
    const [leeds, second] = await drawnPoints(page, '#map .person-marker');
    // two 80-pixel pans at zoom 14 move the map centre about 0.5 km from Leeds
    const apart = meters(leeds!, second!);
    expect(apart).toBeGreaterThan(300);
    expect(apart).toBeLessThan(1000);
    await page.waitForSelector('#results li');
    await page.close();
  });

  it('at phone width (390 px) nothing scrolls sideways, the map sits above the list, and the details panel covers the screen', async () => {
    const page = await openWidget();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.fill('#find-q', 'nando');
    await page.waitForSelector('#results li');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const map = (await page.locator('#map').boundingBox())!;
    const list = (await page.locator('#results').boundingBox())!;
    expect(map.width).toBeGreaterThan(380);
    expect(map.y + map.height).toBeLessThanOrEqual(list.y);
    await page.screenshot({ path: `${SHOTS}/phone-find.png` });
    await page.click('#results li button');
    await page.waitForSelector('#details .menu-item');
    const details = (await page.locator('#details').boundingBox())!;
    expect(details.x).toBe(0);
    expect(details.width).toBe(390);
    await page.screenshot({ path: `${SHOTS}/phone-menu.png` });
    await page.close();
  });

  /** The slippy-map tile of a point at `z`, as its path `/z/x/y.png`. */
  function tilePath(lat: number, lon: number, z: number): string {
    const n = 2 ** z;
    const phi = (lat * Math.PI) / 180;
    return `/${z}/${Math.floor(((lon + 180) / 360) * n)}/${Math.floor(((1 - Math.log(Math.tan(phi) + 1 / Math.cos(phi)) / Math.PI) / 2) * n)}.png`;
  }

  /**
   * A widget server whose map uses tiles from a local tile server; `look` gets the opened
   * page and every tile path requested (a 1x1 PNG each, which the map stretches).
   */
  async function withTiles(only: ((venue: { location: { coordinates: number[] } }) => boolean) | undefined, look: (page: Page, requested: string[]) => Promise<void>): Promise<void> {
    const requested: string[] = [];
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
    const tiles: Server = createServer((req, res) => {
      requested.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(png);
    });
    await new Promise<void>((resolve) => tiles.listen(0, '127.0.0.1', resolve));
    const tileBase = `http://127.0.0.1:${(tiles.address() as AddressInfo).port}`;
    const tiled = await startWidgetServer({ widget: { tileUrl: `${tileBase}/{z}/{x}/{y}.png`, tileAttribution: '© Test tiles' }, ...(only === undefined ? {} : { only }) });
    try {
      const key = (await tiled.open('Enterprise')).publicKey;
      const page = await session.browser.context.newPage();
      await page.goto(`${tiled.base}/v1/widget/?key=${key}`);
      await page.waitForSelector('body[data-ready="true"]');
      await expect.poll(() => requested.length).toBeGreaterThan(0);
      await expect.poll(() => page.locator('#map .leaflet-tile-loaded').count()).toBe(new Set(requested).size);
      await look(page, requested);
      await page.close();
    } finally {
      await tiled.close();
      tiles.closeAllConnections();
      await new Promise((resolve) => tiles.close(resolve));
    }
  }

  it('operator tiles: with a tile URL the map requests the slippy tiles of the venues\' extent (London, Manchester, Edinburgh on the fixtures, not New York) from that server, and shows the attribution', async () => {
    await withTiles(undefined, async (page, requested) => {
      expect(await page.textContent('#map .leaflet-control-attribution')).toContain('© Test tiles');
      expect(await page.getAttribute('#map', 'data-base')).toBe('tiles');
      // one zoom level of tiles: the first view's
      const zooms = new Set(requested.map((path) => Number(path.split('/')[1])));
      expect(zooms.size).toBe(1);
      const [z] = [...zooms] as [number];
      expect(z).toBeGreaterThanOrEqual(5);
      expect(z).toBeLessThanOrEqual(7);
      // the fixtures are British but for a few venues in New York and Auckland: the first view is Britain
      for (const [lat, lon] of [[51.507, -0.128], [53.48, -2.24], [55.953, -3.189]] as const) expect(requested, `${lat},${lon}`).toContain(tilePath(lat, lon, z));
      expect(requested).not.toContain(tilePath(40.713, -74.006, z));
      // tiles replace the offline base: no Natural Earth file, no place labels
      expect(await page.locator('#map .place-label').count()).toBe(0);
    });
  });

  it('issue 32: on data outside Britain (the fixtures\' New York venues alone) the map opens on those venues, not on the UK', async () => {
    const inNewYork = (venue: { location: { coordinates: number[] } }): boolean => venue.location.coordinates[1]! < -60 && venue.location.coordinates[0]! > 30;
    const nyVenues = fixtureVenues.filter(inNewYork);
    expect(nyVenues.length).toBeGreaterThan(5);
    await withTiles(inNewYork, async (page, requested) => {
      const zooms = new Set(requested.map((path) => Number(path.split('/')[1])));
      expect(zooms.size).toBe(1);
      const [z] = [...zooms] as [number];
      expect(z).toBeGreaterThanOrEqual(10); // a city's worth of venues opens on the city
      expect(z).toBeLessThanOrEqual(12);
      // every New York venue's tile is in the first view; nothing of Britain is
      for (const v of nyVenues) expect(requested, v.id).toContain(tilePath(v.location.coordinates[0]!, v.location.coordinates[1]!, z));
      expect(requested.some((path) => path === tilePath(51.507, -0.128, z))).toBe(false);
      await page.screenshot({ path: `${SHOTS}/us-first-view.png` });
    });
  });

  it('a secret key in the URL is refused with a clear message and never echoed', async () => {
    const account = await session.server.open('Enterprise');
    const page = await session.browser.context.newPage();
    const response = await page.goto(`${session.server.base}/v1/widget/?key=${account.secretKey}`);
    expect(response?.status()).toBe(403);
    expect(await page.textContent('h1')).toBe('Secret key refused');
    expect(await page.textContent('[role="alert"]')).toContain('use the account\'s public key');
    expect(await page.content()).not.toContain(account.secretKey);
    expect(await page.locator('#map').count()).toBe(0);
    await page.screenshot({ path: `${SHOTS}/secret-key.png` });
    await page.close();
  });

  it('a public key embedded by a site outside its allowed origins shows "not allowed"; the same page on an allowed origin gets the widget', async () => {
    const account = await session.server.open('Enterprise');
    await session.server.store.setAllowedOrigins(account.accountId, ['https://shop.example']);
    // another origin: same loopback address under the name localhost, another port
    const embedder: Server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<!doctype html><title>shop</title><iframe id="w" src="${session.server.base}/v1/widget/?key=${account.publicKey}" width="900" height="600"></iframe>`);
    });
    await new Promise<void>((resolve) => embedder.listen(0, '127.0.0.1', resolve));
    const embedderOrigin = `http://localhost:${(embedder.address() as AddressInfo).port}`;
    try {
      const page = await session.browser.context.newPage();
      await page.goto(`${embedderOrigin}/`);
      const frame = page.frameLocator('#w');
      await expect.poll(() => frame.locator('h1').textContent()).toBe('Not allowed on this site');
      expect(await frame.locator('[role="alert"]').textContent()).toContain(embedderOrigin);
      await page.screenshot({ path: `${SHOTS}/origin-refused.png` });

      await session.server.store.setAllowedOrigins(account.accountId, ['https://shop.example', embedderOrigin]);
      await page.reload();
      await frame.locator('body[data-ready="true"]').waitFor({ timeout: 10_000 });
      await frame.locator('#find-q').fill('nando');
      await frame.locator('#results li').first().waitFor();
      await page.close();
    } finally {
      embedder.closeAllConnections(); // the browser keeps its keep-alive sockets open
      await new Promise((resolve) => embedder.close(resolve));
    }
  });

  it('docs/widget.md\'s iframe in a plain HTML file opened from disk (file://) shows the widget: no allowed origins, any page', async () => {
    const account = await session.server.open('Enterprise');
    const folder = mkdtempSync(join(tmpdir(), 'venue-search-embed-'));
    const file = join(folder, 'index.html');
    writeFileSync(file, `<!doctype html><title>my page</title><iframe id="w" src="${session.server.base}/v1/widget/?key=${account.publicKey}" width="900" height="600" title="Venue search"></iframe>`);
    const page = await session.browser.context.newPage();
    try {
      await page.goto(pathToFileURL(file).href);
      const frame = page.frameLocator('#w');
      await frame.locator('body[data-ready="true"]').waitFor({ timeout: 10_000 });
      await frame.locator('#find-q').fill('nando');
      await frame.locator('#results li').first().waitFor();
    } finally {
      await page.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('a key over its plan\'s daily limit shows the limit message, not a broken page', async () => {
    const account = await session.server.open('Builder'); // 2 requests a day in this test server
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${session.server.base}/v1/find?q=pub`, { headers: { 'API-Key': account.publicKey } });
      expect(res.status).toBe(200);
    }
    const page = await openWidget(account.publicKey);
    await page.fill('#find-q', 'nando');
    await page.waitForSelector('#notice:not([hidden])');
    const notice = (await page.textContent('#notice')) ?? '';
    expect(notice).toMatch(/^This site's venue search has reached its plan's request limit\. Try again in \d+ (hours|minutes|seconds?)\.$/);
    expect(await page.locator('#find-q').isEditable()).toBe(true);
    expect(await page.locator('#results li').count()).toBe(0);
    await page.screenshot({ path: `${SHOTS}/over-limit.png` });
    await page.close();
  });
});
