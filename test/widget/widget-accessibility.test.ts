/**
 * The widget for keyboard, screen reader and phone users (audit 60d), in headless Chromium
 * against the real service on the fixtures. Oracles are the browser's own geometry
 * (elementFromPoint, bounding boxes, a screenshot's pixels) and the WCAG contrast formula
 * computed here by hand, never the page's code.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumAvailable } from './support/browser.js';
import { mapSettled } from './support/map-dom.js';
import { onePixelRgb } from './support/png-pixel.js';
import { meetUpTwo } from './support/widget-actions.js';
import { SHOTS, widgetSession } from './support/widget-session.js';

/** WCAG 2.x relative luminance of an sRGB colour (0-255 channels). */
function luminance([r, g, b]: readonly number[]): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r!) + 0.7152 * lin(g!) + 0.0722 * lin(b!);
}
function contrast(a: readonly number[], b: readonly number[]): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}
const rgbOf = (css: string): number[] => css.match(/\d+/g)!.slice(0, 3).map(Number);

/** The element the browser paints on top at each of five points down the middle of `selector`'s box. */
async function topmostDownTheMiddle(page: Page, selector: string): Promise<boolean[]> {
  return page.evaluate((sel) => {
    const panel = document.querySelector(sel)!;
    const box = panel.getBoundingClientRect();
    return [0.2, 0.35, 0.5, 0.65, 0.8].map((f) => panel.contains(document.elementFromPoint(box.left + box.width / 2, Math.min(innerHeight - 2, box.top + box.height * f))));
  }, selector);
}

async function openFirstNando(page: Page): Promise<void> {
  await page.fill('#find-q', 'nando');
  await page.waitForSelector('#results li');
  await page.click('#results li button');
  await page.waitForSelector('#details .menu-item');
}

describe.skipIf(!chromiumAvailable)('widget accessibility (audit 60d)', () => {
  const session = widgetSession();

  it('the detail panel is painted above the map at 1280 and at 390 px; at 390 px it is a modal dialog (the page behind it inert) until closed', async () => {
    const desktop = await session.openWidget({ viewport: { width: 1280, height: 800 } });
    await openFirstNando(desktop);
    await mapSettled(desktop);
    expect(await topmostDownTheMiddle(desktop, '#details')).toEqual([true, true, true, true, true]);
    expect(await desktop.getAttribute('#details', 'role')).toBeNull(); // beside the list, not over it
    await desktop.screenshot({ path: `${SHOTS}/details-desktop.png` });
    await desktop.close();

    const phone = await session.openWidget({ viewport: { width: 390, height: 844 } });
    await openFirstNando(phone);
    await mapSettled(phone);
    expect(await topmostDownTheMiddle(phone, '#details')).toEqual([true, true, true, true, true]);
    expect(await phone.getAttribute('#details', 'role')).toBe('dialog');
    expect(await phone.getAttribute('#details', 'aria-modal')).toBe('true');
    // Tab never leaves the panel for the page it covers
    for (let k = 0; k < 6; k++) {
      await phone.keyboard.press('Tab');
      expect(await phone.evaluate(() => document.getElementById('details')!.contains(document.activeElement) || document.activeElement === document.body)).toBe(true);
    }
    await phone.keyboard.press('Escape');
    expect(await phone.locator('#details').isHidden()).toBe(true);
    expect(await phone.evaluate(() => (document.querySelector('.side') as HTMLElement).inert)).toBe(false);
    expect(await phone.evaluate(() => document.activeElement?.closest('#results') !== null)).toBe(true);
    await phone.close();
  });

  it('at 390 px each score part stays beside its own name', async () => {
    const page = await session.openWidget({ viewport: { width: 390, height: 844 } });
    await meetUpTwo(page);
    const pairs = await page.evaluate(() =>
      Array.from(document.querySelectorAll('#results li:first-child .score-parts dt')).map((dt) => {
        const dd = dt.nextElementSibling!;
        const a = dt.getBoundingClientRect();
        const b = dd.getBoundingClientRect();
        return { name: dt.textContent, sameRow: Math.abs(a.top - b.top) < 2, ddRightOfDt: b.left >= a.right - 1, nearest: b.left - a.right };
      }),
    );
    expect(pairs).toHaveLength(6);
    for (const p of pairs) expect(p, String(p.name)).toMatchObject({ sameRow: true, ddRightOfDt: true });
    await page.close();
  });

  it('a find that fails leaves no earlier answer listed, and says the search failed', async () => {
    const page = await session.openWidget();
    await page.fill('#find-q', 'nando');
    await page.waitForSelector('#results li');
    await page.route('**/v1/find?*', (route) => route.abort('connectionrefused'));
    await page.fill('#find-q', 'crown');
    await page.waitForSelector('#notice:not([hidden])');
    await expect.poll(() => page.locator('#results li').count()).toBe(0);
    expect(await page.textContent('#results-status')).toBe('The search failed; the reason is in the message above.');
    await page.close();
  });

  it('removing a person from the keyboard keeps focus in the list and says who was removed', async () => {
    const page = await session.openWidget();
    await meetUpTwo(page);
    const first = page.locator('#locations li').first().locator('button.remove');
    const label = (await first.getAttribute('aria-label'))!.replace(/^Remove /, '');
    await first.focus();
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toMatch(/^Remove /);
    expect(await page.textContent('#announce')).toBe(`${label} removed.`);
    await page.close();
  });

  it('a map point added with Enter is announced with where it is', async () => {
    const page = await session.openWidget();
    await page.check('input[name="mode"][value="route"]');
    await mapSettled(page);
    await page.focus('#map');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.textContent('#announce')).toBe('Route point 1 added. 1 route point, 0 m long.');
    await page.close();
  });

  it('an unknown place name is said under its field, which is marked invalid, in the widget\'s words', async () => {
    const page = await session.openWidget();
    await page.check('input[name="mode"][value="meet"]');
    await page.fill('#place-name', 'Qwxzyville');
    await page.press('#place-name', 'Enter');
    await page.waitForSelector('#place-error:not([hidden])');
    expect(await page.textContent('#place-error')).toBe('"Qwxzyville" is not a place the service knows. Try a town, an area or a postcode.');
    expect(await page.getAttribute('#place-name', 'aria-invalid')).toBe('true');
    expect(await page.locator('#notice').isHidden()).toBe(true);
    // editing the field takes the words back: they described the name that was sent (audit 61b)
    await page.type('#place-name', 'x');
    expect(await page.locator('#place-error').isHidden()).toBe(true);
    expect(await page.getAttribute('#place-name', 'aria-invalid')).toBeNull();
    await page.fill('#place-name', 'Leeds');
    await page.press('#place-name', 'Enter');
    await page.waitForSelector('#locations li');
    expect(await page.locator('#place-error').isHidden()).toBe(true);
    expect(await page.getAttribute('#place-name', 'aria-invalid')).toBeNull();
    await page.close();
  });

  it('at 320 px (400 % zoom), and at 390 px with WCAG 1.4.12 text spacing, the people rows and the detail panel reflow: no sideways scrolling', async () => {
    const addByName = async (page: Page, names: string[]) => {
      await page.check('input[name="mode"][value="meet"]');
      for (const [k, name] of names.entries()) {
        await page.fill('#place-name', name);
        await page.press('#place-name', 'Enter');
        await expect.poll(() => page.locator('#locations li').count()).toBe(k + 1);
      }
    };
    const narrow = await session.openWidget({ viewport: { width: 320, height: 640 } });
    await addByName(narrow, ['Leeds', 'York', 'Harrogate']);
    expect(await narrow.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await narrow.check('input[name="mode"][value="find"]');
    await openFirstNando(narrow);
    const close = (await narrow.locator('#details button.close').boundingBox())!;
    expect(close.x + close.width).toBeLessThanOrEqual(320);
    await narrow.close();

    const spaced = await session.openWidget({ viewport: { width: 390, height: 844 } });
    await addByName(spaced, ['Leeds', 'York', 'Harrogate']);
    // the user's text spacing of WCAG 1.4.12, set on every element (the page's CSP refuses a style sheet from outside)
    await spaced.evaluate(() => {
      for (const element of Array.from(document.querySelectorAll<HTMLElement>('body *'))) {
        element.style.setProperty('line-height', '1.5', 'important');
        element.style.setProperty('letter-spacing', '0.12em', 'important');
        element.style.setProperty('word-spacing', '0.16em', 'important');
        if (element.tagName === 'P') element.style.setProperty('margin-bottom', '2em', 'important');
      }
    });
    expect(await spaced.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await spaced.close();
  });

  it('the map\'s venues and groups come in the Tab order of their ranks (audit 60d: in markercluster\'s order), also after a zoom', async () => {
    const page = await session.openWidget({ viewport: { width: 1280, height: 800 } });
    await page.fill('#find-q', 'nando');
    await page.waitForSelector('#results li:nth-child(20)');
    await mapSettled(page);
    const tabRanks = () =>
      page.evaluate(() =>
        Array.from(document.querySelectorAll<HTMLElement>('.leaflet-marker-pane [tabindex]')).map((el) => Number(el.dataset.rank ?? el.querySelector<HTMLElement>('.cluster-badge')!.dataset.ranks!.split(' ')[0])),
      );
    for (const zoom of ['initial', 'in']) {
      if (zoom === 'in') {
        await page.click('#zoom-in');
        await mapSettled(page);
      }
      const ranks = await tabRanks();
      expect(ranks.length, zoom).toBeGreaterThan(1);
      expect(ranks, zoom).toEqual([...ranks].sort((a, b) => a - b));
    }
    await page.close();
  });

  it('landmarks: the page has a main region, and the map\'s unnamed drawing layer is hidden from screen readers (the lists carry it)', async () => {
    const page = await session.openWidget();
    expect(await page.locator('main').count()).toBe(1);
    expect(await page.getAttribute('.leaflet-overlay-pane', 'aria-hidden')).toBe('true');
    await page.close();
  });

  it('the page never scrolls as a whole: with 20 results listed it is as tall as the window', async () => {
    const page = await session.openWidget({ viewport: { width: 1280, height: 800 } });
    await page.fill('#find-q', 'nando');
    await page.waitForSelector('#results li:nth-child(20)');
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThanOrEqual(800);
    await page.close();
  });

  it('audit 62c finding 5: in the docs\' 640 px iframe the two-column page never scrolls as a whole (find, and a meet-up with the preferences open); at 390 px, one column, it scrolls down, never sideways', async () => {
    for (const width of [1280, 390]) {
      const host = await session.browser.context.newPage();
      await host.setViewportSize({ width, height: 800 });
      // the embedding snippet of docs/widget.md, on a blank page
      await host.setContent(`<iframe src="${session.server.base}/v1/widget/?key=${session.publicKey}" title="Venue search" width="100%" height="640" style="border:0"></iframe>`);
      const frame = (await (await host.waitForSelector('iframe')).contentFrame())!;
      await frame.waitForSelector('body[data-ready="true"]');
      await frame.fill('#find-q', 'nando');
      await frame.waitForSelector('#results li:nth-child(20)');
      const size = () => frame.evaluate(() => ({ height: document.documentElement.scrollHeight, window: innerHeight, width: document.documentElement.scrollWidth, windowWidth: innerWidth }));
      const found = await size();
      expect(found.window).toBe(640);
      expect(found.width, `${width} px: sideways`).toBeLessThanOrEqual(found.windowWidth);
      if (width === 1280) expect(found.height, 'find, two columns').toBeLessThanOrEqual(640);
      else expect(found.height, 'find, one column').toBeGreaterThan(640);
      if (width === 1280) {
        await frame.check('input[name="mode"][value="meet"]');
        await frame.click('#prefs summary');
        expect((await size()).height, 'meet-up with preferences, two columns').toBeLessThanOrEqual(640);
      }
      await host.close();
    }
  });

  it('focus rings have 3:1 against the page, and the focused map shows one above its panes', async () => {
    const page = await session.openWidget({ viewport: { width: 1280, height: 800 } });
    await page.focus('#find-q');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab'); // a keyboard focus, so :focus-visible applies
    const ring = rgbOf(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineColor));
    expect(contrast(ring, [255, 255, 255])).toBeGreaterThanOrEqual(3);
    expect(contrast(ring, [0xf4, 0xf6, 0xf9])).toBeGreaterThanOrEqual(3); // the preferences' panel grey
    await mapSettled(page);
    await page.focus('#map');
    await page.keyboard.press('ArrowRight');
    await mapSettled(page);
    const map = (await page.locator('#map').boundingBox())!;
    const edge = onePixelRgb(await page.screenshot({ clip: { x: map.x + 1, y: map.y + map.height / 2, width: 1, height: 1 } }));
    expect(edge).toEqual(ring);
    await page.close();
  });
});
