/**
 * Headless Chromium for the widget's end-to-end tests: Debian's `chromium` package driven by
 * playwright-core (no browser download). The flags keep Chromium off the network (the test
 * machine has loopback only; without them it waits on network attempts). When Chromium is
 * missing the tests skip locally, but fail under CI (`CI` set), so a broken CI image cannot
 * pass silently.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const chromiumAvailable = existsSync(CHROMIUM_PATH);

if (!chromiumAvailable) {
  const why = `widget e2e: no Chromium at ${CHROMIUM_PATH} (apt-get install chromium, or set CHROMIUM_PATH)`;
  if (process.env.CI !== undefined && process.env.CI !== '' && process.env.CI !== 'false') throw new Error(`${why}; CI must install it`);
  console.warn(`${why}: skipping`);
}

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export interface Browser {
  readonly context: BrowserContext;
  close(): Promise<void>;
}

/**
 * A persistent context in a fresh profile folder, removed on close; `timezoneId` is the
 * device's zone; `touch`: a phone (touch screen and mobile viewport, so `pointer: coarse` applies).
 */
export async function launchBrowser(viewport = { width: 1200, height: 800 }, timezoneId = 'Europe/London', touch = false): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'widget-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: FLAGS,
    viewport,
    // the device's zone (the page reads "open at" in the venues' zone, shown; this one fixed for the tests)
    timezoneId,
    locale: 'en-GB',
    ...(touch ? { hasTouch: true, isMobile: true } : {}),
    timeout: 30_000,
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
