/**
 * Audit 67c F4: between the phone layout (up to 720 px) and 800 px the open detail panel (420 px)
 * was wider than the map column and covered the right of the form column, cutting "Add person"
 * and the "Remove" buttons. The oracle is the browser's layout: the panel's box against the
 * column's, and what is painted at each control's right edge (elementFromPoint).
 */
import { describe, expect, it } from 'vitest';
import { chromiumAvailable } from './support/browser.js';
import { meetUpTwo } from './support/widget-actions.js';
import { widgetSession } from './support/widget-session.js';

describe.skipIf(!chromiumAvailable)('the detail panel beside the form column at tablet widths (audit 67c F4)', () => {
  const session = widgetSession();

  for (const width of [721, 768, 799, 1024]) {
    it(`at ${width} px the open panel leaves the form column and its buttons whole`, async () => {
      const page = await session.openWidget({ viewport: { width, height: 1024 } });
      await meetUpTwo(page);
      await page.click('#results > li:first-child button.result-button');
      await page.waitForSelector('#details:not([hidden]) #details-name');
      const side = (await page.locator('.side').boundingBox())!;
      const panel = (await page.locator('#details').boundingBox())!;
      expect(panel.x, 'panel left edge vs column right edge').toBeGreaterThanOrEqual(side.x + side.width - 0.5);
      expect(panel.x + panel.width).toBeCloseTo(width, 0);
      // each button's right edge shows the button itself, not the panel
      const hidden = await page.$$eval('#place-form button[type="submit"], #locations button.remove', (buttons) =>
        buttons
          .map((b) => ({ b, r: b.getBoundingClientRect() }))
          .filter(({ b, r }) => !b.contains(document.elementFromPoint(r.right - 2, r.top + r.height / 2)))
          .map(({ b }) => b.textContent),
      );
      expect(hidden).toEqual([]);
      await page.close();
    });
  }
});
