/**
 * Audit 65b (widget accessibility): what the detail panel covers at desktop width, and reflow
 * with WCAG 1.4.12 text spacing, in headless Chromium against the real service on the
 * fixtures. Oracles: the browser's own geometry (elementFromPoint at each focused element's
 * centre, bounding boxes against the viewport), never the page's code.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumAvailable } from './support/browser.js';
import { mapSettled } from './support/map-dom.js';
import { meetUpTwo } from './support/widget-actions.js';
import { widgetSession } from './support/widget-session.js';

/** Each Tab stop of one round of the page (until the focus comes back to the first): its name, and whether the detail panel is painted over its centre. */
async function tabRound(page: Page): Promise<{ name: string; underPanel: boolean }[]> {
  const stops: { name: string; underPanel: boolean }[] = [];
  let first: string | undefined;
  for (let k = 0; k < 150; k++) {
    await page.keyboard.press('Tab');
    const stop = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement;
      const panel = document.getElementById('details')!;
      const r = el.getBoundingClientRect();
      const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      const key = `${el.tagName}#${el.id}.${el.className}|${el.getAttribute('aria-label') ?? el.textContent?.slice(0, 40)}`;
      return { key, name: el.getAttribute('aria-label') ?? el.textContent?.slice(0, 40) ?? el.tagName, underPanel: !panel.contains(el) && top !== null && panel.contains(top) };
    });
    if (stop.key === first) break;
    first ??= stop.key;
    stops.push({ name: stop.name, underPanel: stop.underPanel });
  }
  return stops;
}

describe.skipIf(!chromiumAvailable)('what the detail panel covers, and reflow (audit 65b)', () => {
  const session = widgetSession();

  it('F7: at 1280 and 900 px, with the detail panel open, no Tab stop is under the panel; the zoom buttons stay reachable at 1280 px', async () => {
    for (const width of [1280, 900]) {
      const page = await session.openWidget({ viewport: { width, height: 800 } });
      await page.fill('#find-q', 'nando');
      await page.waitForSelector('#results li:nth-child(20)');
      await mapSettled(page);
      await page.click('#results li button');
      await page.waitForSelector('#details .menu-item');
      await mapSettled(page);
      const stops = await tabRound(page);
      expect(stops.length, `${width} px`).toBeGreaterThan(20);
      expect(stops.filter((s) => s.underPanel).map((s) => s.name), `${width} px`).toEqual([]);
      if (width === 1280) expect(stops.map((s) => s.name)).toContain('Zoom in');
      await page.close();
    }
  });

  it('F5: at 320 px with WCAG 1.4.12 text spacing, every score part stays inside its card, beside its own name, and the page does not scroll sideways', async () => {
    const page = await session.openWidget({ viewport: { width: 320, height: 640 } });
    await meetUpTwo(page);
    // the user's text spacing of WCAG 1.4.12, set on every element (the page's CSP refuses a style sheet from outside)
    await page.evaluate(() => {
      for (const element of Array.from(document.querySelectorAll<HTMLElement>('body *'))) {
        element.style.setProperty('line-height', '1.5', 'important');
        element.style.setProperty('letter-spacing', '0.12em', 'important');
        element.style.setProperty('word-spacing', '0.16em', 'important');
        if (element.tagName === 'P') element.style.setProperty('margin-bottom', '2em', 'important');
      }
    });
    const parts = await page.evaluate(() =>
      Array.from(document.querySelectorAll('#results li .score-parts dt')).map((dt) => {
        const dd = dt.nextElementSibling!;
        const card = dt.closest('li')!.getBoundingClientRect();
        const a = dt.getBoundingClientRect();
        const b = dd.getBoundingClientRect();
        return { name: dt.textContent, inside: b.right <= card.right && a.left >= card.left, sameRow: Math.abs(a.top - b.top) < 2, ddRightOfDt: b.left >= a.right - 1 };
      }),
    );
    expect(parts.length).toBeGreaterThanOrEqual(6);
    for (const p of parts) expect(p, String(p.name)).toEqual({ name: p.name, inside: true, sameRow: true, ddRightOfDt: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await page.close();
  });
});
