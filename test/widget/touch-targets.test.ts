/**
 * Audit 64c F3: on a touch phone (390 x 844, touch screen, so `pointer: coarse` applies) every
 * visible control is a tap target of at least 44 x 44 CSS px (WCAG 2.5.5), and the page still
 * never scrolls sideways. Oracle: the layout boxes (getBoundingClientRect) of every
 * interactive element, through each mode, the preferences, a place-name suggestion, the
 * details panel (with its phone link) and the map's markers; a checkbox or a hidden mode radio
 * is tapped through its label, whose box is measured.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, launchBrowser, type Browser } from './support/browser.js';
import { mapSettled } from './support/map-dom.js';
import { startWidgetServer, type WidgetServer } from './support/widget-server.js';

const TAP = 44;
const PHONE = { width: 390, height: 844 };

/** Visible interactive elements smaller than TAP in either direction, and the page's scroll width. */
async function smallTargets(page: Page): Promise<{ small: string[]; scrollWidth: number; measured: number }> {
  return page.evaluate((tap) => {
    const selector = 'a[href], button, input:not([type="hidden"]), select, textarea, summary, [tabindex]:not([tabindex="-1"]), .leaflet-marker-icon.venue-marker, .leaflet-marker-icon.venue-cluster';
    const targets = new Set<Element>();
    for (const el of Array.from(document.querySelectorAll(selector))) {
      // a checkbox or radio is tapped through the label round it
      const input = el as HTMLInputElement;
      const target = el.tagName === 'INPUT' && (input.type === 'checkbox' || input.type === 'radio') ? (el.closest('label') ?? el) : el;
      if (target.id === 'map') continue; // the map itself: the whole map area
      if (!target.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
      targets.add(target);
    }
    const small: string[] = [];
    for (const el of targets) {
      const r = el.getBoundingClientRect();
      if (r.width < tap - 0.5 || r.height < tap - 0.5) {
        const name = `${el.tagName.toLowerCase()}${el.id === '' ? '' : `#${el.id}`}.${el.className.toString().replace(/\s+/g, '.')} "${(el.textContent ?? '').trim().slice(0, 30)}"`;
        small.push(`${name} ${r.width.toFixed(0)}x${r.height.toFixed(0)}`);
      }
    }
    return { small, scrollWidth: document.scrollingElement!.scrollWidth, measured: targets.size };
  }, TAP);
}

describe.skipIf(!chromiumAvailable)('tap targets on a touch phone (audit 64c F3)', () => {
  let server: WidgetServer;
  let phone: Browser;
  let desktop: Browser;
  let key: string;
  beforeAll(async () => {
    [server, phone, desktop] = await Promise.all([startWidgetServer(), launchBrowser(PHONE, 'Europe/London', true), launchBrowser()]);
    key = (await server.open('Enterprise')).publicKey;
  });
  afterAll(async () => {
    await phone?.close();
    await desktop?.close();
    await server?.close();
  });

  async function open(browser: Browser): Promise<Page> {
    const page = await browser.context.newPage();
    page.on('pageerror', (err) => {
      throw err;
    });
    await page.goto(`${server.base}/v1/widget/?key=${key}`);
    await page.waitForSelector('body[data-ready="true"]');
    return page;
  }

  async function expectTappable(page: Page, step: string, atLeast: number): Promise<void> {
    const { small, scrollWidth, measured } = await smallTargets(page);
    expect(small, step).toEqual([]);
    expect(measured, step).toBeGreaterThanOrEqual(atLeast);
    expect(scrollWidth, step).toBeLessThanOrEqual(PHONE.width);
  }

  it('find, details, meet-up with preferences and a suggestion, route: every visible control is 44 x 44 px or more, with no sideways scrolling', async () => {
    const page = await open(phone);
    expect(await page.evaluate(() => matchMedia('(pointer: coarse)').matches)).toBe(true);
    await expectTappable(page, 'first view', 6);

    await page.fill('#find-q', 'nando');
    await page.waitForSelector('#results li');
    await page.waitForSelector('#map .venue-marker, #map .venue-cluster');
    await mapSettled(page);
    await expectTappable(page, 'find "nando"', 10);

    await page.locator('#results li button').first().tap();
    await page.waitForSelector('#details .contact a[href^="tel:"]');
    await expectTappable(page, 'details', 10);
    await page.tap('#details .close');

    await page.locator('label:has(input[name="mode"][value="meet"])').tap();
    await page.fill('#place-name', 'London');
    await page.tap('#place-form button[type="submit"]');
    await page.waitForSelector('#locations li');
    await page.fill('#place-name', 'Shoreditchh');
    await page.tap('#place-form button[type="submit"]');
    await page.waitForSelector('.place-suggestion');
    await page.tap('#prefs summary');
    await page.selectOption('#open-mode', 'at');
    await page.waitForSelector('#open-at:visible');
    await mapSettled(page);
    await expectTappable(page, 'meet-up, preferences open, a suggestion', 30);

    await page.locator('label:has(input[name="mode"][value="route"])').tap();
    const map = (await page.locator('#map').boundingBox())!;
    for (const [dx, dy] of [[-60, 0], [60, 20]] as const) await page.mouse.click(map.x + map.width / 2 + dx, map.y + map.height / 2 + dy);
    await page.waitForSelector('#route-clear:visible');
    await expectTappable(page, 'route', 10);
    await page.close();
  });

  it('a desktop with a mouse keeps the compact controls (the map buttons stay 2.4rem, 36 px)', async () => {
    const page = await open(desktop);
    expect(await page.evaluate(() => matchMedia('(pointer: coarse)').matches)).toBe(false);
    const zoomIn = (await page.locator('#zoom-in').boundingBox())!;
    expect([zoomIn.width, zoomIn.height]).toEqual([36, 36]);
    await page.close();
  });
});
