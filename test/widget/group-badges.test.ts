/**
 * Audit 67c F5: on a meet-up the group badges piled on each other (a 32 px grouping radius for
 * 34 px badges, groups drawn at their venues' mean point) and the centre cross was drawn over a
 * group's count. The oracle is the browser's own layout: the badges' boxes as laid out
 * (getBoundingClientRect) and the computed z-index of the markers, which share one stacking
 * context (Leaflet's marker pane), so the higher one is painted above.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumAvailable } from './support/browser.js';
import { mapSettled } from './support/map-dom.js';
import { addPersonByName } from './support/widget-actions.js';
import { widgetSession } from './support/widget-session.js';

interface Badge {
  readonly text: string;
  readonly x: number;
  readonly y: number;
  readonly size: number;
}

/** Every venue and group badge drawn: its text, centre and width, as laid out. */
const badges = (page: Page): Promise<Badge[]> =>
  page.$$eval('#map .cluster-badge, #map .rank-badge', (nodes) =>
    nodes.map((n) => {
      const r = n.getBoundingClientRect();
      return { text: n.textContent ?? '', x: r.left + r.width / 2, y: r.top + r.height / 2, size: r.width };
    }),
  );

/** Pairs of badges nearer than their half widths (one covers part of the other) where one is a group. */
function overlaps(drawn: readonly Badge[]): string[] {
  const found: string[] = [];
  for (let i = 0; i < drawn.length; i++) {
    for (let j = i + 1; j < drawn.length; j++) {
      const a = drawn[i]!;
      const b = drawn[j]!;
      const d = Math.hypot(a.x - b.x, a.y - b.y);
      if (d < (a.size + b.size) / 2 - 0.5) found.push(`"${a.text}" and "${b.text}" ${d.toFixed(1)} px apart`);
    }
  }
  return found;
}

describe.skipIf(!chromiumAvailable)('group badges and the centre on a meet-up (audit 67c F5)', () => {
  const session = widgetSession();

  const meetUp = async (): Promise<Page> => {
    const page = await session.openWidget({ viewport: { width: 1280, height: 640 } });
    await addPersonByName(page, 'London');
    await page.fill('#place-name', 'Islington');
    await page.click('#place-form button[type="submit"]');
    await page.waitForSelector('#results li');
    await page.mouse.move(1, 1); // no hover highlight
    await mapSettled(page);
    return page;
  };

  it('no badge covers part of another at the fitted view and two steps closer', async () => {
    const page = await meetUp();
    for (let step = 0; step < 3; step++) {
      if (step > 0) {
        await page.click('#zoom-in');
        await page.mouse.move(1, 1);
        await mapSettled(page);
      }
      const drawn = await badges(page);
      const zoom = await page.getAttribute('#map', 'data-zoom');
      expect(drawn.filter((b) => b.size > 30).length, `groups at zoom ${zoom}`).toBeGreaterThan(step === 0 ? 1 : 0);
      expect(overlaps(drawn), `zoom ${zoom}`).toEqual([]);
    }
    await page.close();
  });

  it('the centre cross is painted below every venue and group badge', async () => {
    const page = await meetUp();
    const order = await page.evaluate(() => {
      const z = (el: Element): number => Number(getComputedStyle(el).zIndex);
      const centre = document.querySelector('#map .centre-marker');
      return { centre: centre === null ? null : z(centre), venues: Array.from(document.querySelectorAll('#map .venue-marker, #map .venue-cluster')).map(z) };
    });
    expect(order.centre).not.toBeNull();
    expect(order.venues.length).toBeGreaterThan(1);
    expect(order.venues.filter((v) => v <= order.centre!)).toEqual([]);
    await page.close();
  });
});
