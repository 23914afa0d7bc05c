/**
 * Audit 64c F7: results astride the antimeridian (six cafés round Fiji, three at 179.5-179.9 E
 * and three at 179.5-179.9 W, test/widget/fixtures/antimeridian.ndjson) are framed as the
 * smallest longitude span, not as the whole world centred on Africa. Oracles, by hand from the
 * fixture: the six longitudes lie in 179.5 E .. 179.5 W across 180, a span of 1.0 degree; the
 * view's span is the map's width over the Mercator world width at its zoom (256 * 2^zoom px
 * for 360 degrees); markers are read from the DOM layout.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumAvailable } from './support/browser.js';
import { inside, mapBox, mapSettled, shownRanks } from './support/map-dom.js';
import { widgetSession } from './support/widget-session.js';

/** 179.5 E to 179.5 W across the antimeridian, degrees. */
const SMALLEST_SPAN = 1.0;

/** Degrees of longitude across the map at its zoom (Web Mercator: 256 * 2^zoom px per 360 degrees). */
async function viewSpan(page: Page): Promise<number> {
  const zoom = Number(await page.getAttribute('#map', 'data-zoom'));
  const width = await page.$eval('#map', (el) => el.getBoundingClientRect().width);
  return (width * 360) / (256 * 2 ** zoom);
}

describe.skipIf(!chromiumAvailable)('results astride the antimeridian (audit 64c F7)', () => {
  const session = widgetSession({ file: 'test/widget/fixtures/antimeridian.ndjson' });

  it('find "fiji": all six results are drawn inside the map, the view spans a few degrees round 180, and the fit button frames the same', async () => {
    const page = await session.openWidget();
    await page.fill('#find-q', 'fiji');
    await expect.poll(() => page.textContent('#results-status')).toMatch(/^6 venues found/);
    for (const fit of [false, true]) {
      if (fit) {
        // out to a world-wide view first, so the fit has to bring Fiji back
        for (let i = 0; i < 4; i++) {
          await page.click('#zoom-out');
          await mapSettled(page);
        }
        expect(await viewSpan(page)).toBeGreaterThan(10 * SMALLEST_SPAN);
        await page.click('#zoom-fit');
      }
      await mapSettled(page);
      const frame = await mapBox(page);
      const shown = await shownRanks(page);
      expect(new Set(shown.map((s) => s.rank))).toEqual(new Set([1, 2, 3, 4, 5, 6]));
      for (const s of shown) expect(inside(s.box, frame), `rank ${s.rank} at ${JSON.stringify(s.box)} in ${JSON.stringify(frame)}`).toBe(true);
      const span = await viewSpan(page);
      expect(span).toBeGreaterThanOrEqual(SMALLEST_SPAN);
      expect(span).toBeLessThan(4 * SMALLEST_SPAN);
      // the view's centre lies within a degree of 180 (whatever world copy Leaflet keeps it in)
      const centreLon = Number(await page.getAttribute('#map', 'data-centre-lon'));
      expect(Math.abs((((centreLon % 360) + 360) % 360) - 180)).toBeLessThan(1);
    }
    await page.close();
  });
});
