/**
 * One setup for the widget's browser suites: the real service on the fixtures
 * (widget-server.ts), headless Chromium (browser.ts) and an Enterprise account's public
 * key, started before the suite's tests and closed after them, and `openWidget`, a fresh
 * page on the widget, ready (body[data-ready]), whose uncaught errors fail the test.
 * Call `widgetSession()` inside the suite's `describe` (it registers beforeAll / afterAll).
 */
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser, type Browser } from './browser.js';
import { startWidgetServer, type WidgetServer, type WidgetServerOptions } from './widget-server.js';

/** Where the browser suites save their screenshots. */
export const SHOTS = 'test-output/widget';

export interface OpenWidgetOptions {
  /** The key in the page's URL (default: the session's Enterprise public key). */
  readonly key?: string;
  /** CSS pixels; default the browser's 1200 x 800. */
  readonly viewport?: { width: number; height: number };
  /** Called with the new page before it loads (to attach listeners). */
  readonly onPage?: (page: Page) => void;
}

export interface WidgetSession {
  /** Valid inside the suite's tests (after beforeAll). */
  readonly server: WidgetServer;
  readonly browser: Browser;
  readonly publicKey: string;
  openWidget(options?: OpenWidgetOptions): Promise<Page>;
}

/** `server`: the service's options (default: the fixtures, the default widget). */
export function widgetSession(serverOptions: WidgetServerOptions = {}): WidgetSession {
  let server: WidgetServer | undefined;
  let browser: Browser | undefined;
  let publicKey: string | undefined;
  const ready = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`widget session: ${what} used before beforeAll`);
    return value;
  };

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    [server, browser] = await Promise.all([startWidgetServer(serverOptions), launchBrowser()]);
    publicKey = (await server.open('Enterprise')).publicKey;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const session: WidgetSession = {
    get server() {
      return ready(server, 'server');
    },
    get browser() {
      return ready(browser, 'browser');
    },
    get publicKey() {
      return ready(publicKey, 'publicKey');
    },
    async openWidget(options: OpenWidgetOptions = {}) {
      const page = await session.browser.context.newPage();
      if (options.viewport !== undefined) await page.setViewportSize(options.viewport);
      page.on('pageerror', (err) => {
        throw err;
      });
      options.onPage?.(page);
      await page.goto(`${session.server.base}/v1/widget/?key=${options.key ?? session.publicKey}`);
      await page.waitForSelector('body[data-ready="true"]', { timeout: 10_000 });
      return page;
    },
  };
  return session;
}
