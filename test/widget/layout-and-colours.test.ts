/**
 * Audit 65b (widget accessibility): what the detail panel covers at desktop width, reflow with
 * WCAG 1.4.12 text spacing, forced colours and the credit link, in headless Chromium against the
 * real service on the fixtures. Oracles: the browser's own geometry (elementFromPoint at each
 * focused element's centre, bounding boxes against the viewport), screenshot pixels and the
 * WCAG contrast formula computed here, never the page's code.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumAvailable } from './support/browser.js';
import { mapSettled } from './support/map-dom.js';
import { onePixelRgb } from './support/png-pixel.js';
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

/** WCAG 2.x contrast ratio of two sRGB colours (0-255 channels), by the formula. */
function contrast(a: readonly number[], b: readonly number[]): number {
  const luminance = ([r, g, bl]: readonly number[]): number => {
    const lin = (c: number) => (c / 255 <= 0.04045 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);
    return 0.2126 * lin(r!) + 0.7152 * lin(g!) + 0.0722 * lin(bl!);
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

describe.skipIf(!chromiumAvailable)('what the detail panel covers, reflow, forced colours and the credit link (audit 65b)', () => {
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

  it('F6: in forced colours (dark and light), the focused map\'s aim is drawn (its cross against its disc) and a line of its ring contrasts with the map, 3:1 or more', async () => {
    for (const colorScheme of ['dark', 'light'] as const) {
      const page = await session.openWidget({ viewport: { width: 1280, height: 800 } });
      await page.emulateMedia({ forcedColors: 'active', colorScheme });
      await mapSettled(page);
      await page.focus('#map');
      await page.keyboard.press('ArrowRight'); // a keyboard focus: :focus-visible, the ring and the aim
      await mapSettled(page);
      const box = (await page.locator('.map-wrap').boundingBox())!;
      const at = async (x: number, y: number) => onePixelRgb(await page.screenshot({ clip: { x: Math.round(x), y: Math.round(y), width: 1, height: 1 } }));
      const cx = box.x + box.width / 2;
      const cy = box.y + box.height / 2;
      // the cross's horizontal bar 6 px right of the centre, the disc 6 px right and 6 px down
      const bar = await at(cx + 6, cy);
      const disc = await at(cx + 6, cy + 6);
      expect(contrast(bar, disc), `${colorScheme}: aim bar ${bar} on disc ${disc}`).toBeGreaterThanOrEqual(3);
      // the ring's outer line (1 px in), its inner line (4 px in) and the map (20 px in), mid left edge
      const ring = await at(box.x + 1, cy);
      const inner = await at(box.x + 4, cy);
      const map = await at(box.x + 20, cy);
      const best = Math.max(contrast(ring, map), contrast(inner, map));
      expect(best, `${colorScheme}: ring ${ring}, inner ${inner}, map ${map}`).toBeGreaterThanOrEqual(3);
      await page.close();
    }
  });

  it('F9: the map credit\'s links are underlined, not told from the credit\'s text by colour alone', async () => {
    const page = await session.openWidget();
    await page.waitForSelector('.leaflet-control-attribution a');
    const links = await page.$$eval('.leaflet-control-attribution a', (as) => as.map((a) => getComputedStyle(a).textDecorationLine));
    expect(links.length).toBeGreaterThan(0);
    for (const line of links) expect(line).toContain('underline');
    await page.close();
  });
});
