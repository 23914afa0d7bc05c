/**
 * Reading the widget's Leaflet map in the browser tests: where things are drawn on the
 * screen (bounding boxes, in CSS pixels) and what they stand for (data-* attributes).
 * Nothing here uses the page's own code or Leaflet's projection: positions come from the
 * DOM layout, so a test can check them against independent geometry.
 */
import type { Page } from 'playwright-core';

export interface Box {
  readonly left: number;
  readonly top: number;
  readonly right: number;
  readonly bottom: number;
}

export interface DrawnPoint {
  readonly lat: number;
  readonly lon: number;
  /** Screen position of the point the element marks (CSS pixels). */
  readonly x: number;
  readonly y: number;
}

/**
 * Drawn points with their coordinates: venue markers, route vertices and the centre mark
 * their point at the middle of their box; a person's pin at the middle of its bottom edge.
 */
export async function drawnPoints(page: Page, selector: string): Promise<DrawnPoint[]> {
  return page.$$eval(selector, (nodes) =>
    nodes.map((n) => {
      const r = n.getBoundingClientRect();
      const pin = n.classList.contains('person-marker');
      return { lat: Number(n.getAttribute('data-lat')), lon: Number(n.getAttribute('data-lon')), x: r.left + r.width / 2, y: pin ? r.bottom : r.top + r.height / 2 };
    }),
  );
}

/** The map's visible box (the container clipped to the viewport). */
export async function mapBox(page: Page): Promise<Box> {
  return page.$eval('#map', (el) => {
    const r = el.getBoundingClientRect();
    return { left: Math.max(0, r.left), top: Math.max(0, r.top), right: Math.min(window.innerWidth, r.right), bottom: Math.min(window.innerHeight, r.bottom) };
  });
}

/** Boxes of every element matching `selector`, labelled by `label` (an attribute) for messages. */
export async function boxes(page: Page, selector: string, label = 'class'): Promise<(Box & { label: string })[]> {
  return page.$$eval(
    selector,
    (nodes, attr) =>
      nodes.map((n) => {
        const r = n.getBoundingClientRect();
        return { left: r.left, top: r.top, right: r.right, bottom: r.bottom, label: `${n.getAttribute(attr) ?? ''}` };
      }),
    label,
  );
}

export const inside = (b: Box, frame: Box, slack = 0.5): boolean =>
  b.left >= frame.left - slack && b.top >= frame.top - slack && b.right <= frame.right + slack && b.bottom <= frame.bottom + slack;

/**
 * Which result ranks the map shows, and where: a venue's own marker (`data-rank`) or the
 * group it is clustered into (`data-ranks` on the group's badge, whose box is the marker's).
 */
export async function shownRanks(page: Page): Promise<{ rank: number; box: Box; clustered: boolean }[]> {
  return page.$$eval('#map .venue-marker[data-rank], #map .venue-cluster', (nodes) =>
    nodes.flatMap((n): { rank: number; box: Box; clustered: boolean }[] => {
      const r = n.getBoundingClientRect();
      const box = { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
      const own = n.getAttribute('data-rank');
      if (own !== null) return [{ rank: Number(own), box, clustered: false }];
      const ranks = n.querySelector('[data-ranks]')?.getAttribute('data-ranks') ?? '';
      return ranks.split(' ').filter((x) => x !== '').map((x) => ({ rank: Number(x), box, clustered: true }));
    }),
  );
}

/**
 * Resolves once the map has no move or zoom animation running. Leaflet starts an animated
 * zoom (a button's, or setView's) in the next animation frame, where it also fires
 * `movestart`; looked at before that frame, the map seems settled while the move is about
 * to start, and a click made then lands mid-animation (CI, a loaded machine: a person
 * clicked onto the map drawn 35 px from the click). So two frames pass first.
 */
export async function mapSettled(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
  await page.waitForFunction(() => document.getElementById('map')?.getAttribute('data-moving') !== 'true' && document.querySelector('#map .leaflet-zoom-anim') === null);
}
