/** What the widget tests on real plan windows read of the page's API calls, and when they start an action. */
import type { Page, Response } from 'playwright-core';

export interface Seen {
  readonly status: number;
  readonly path: string;
}

/** Every /v1 API answer the page (and its frames) gets, not the widget page and its assets. */
export function recordCalls(page: Page): Seen[] {
  const seen: Seen[] = [];
  page.on('response', (r: Response) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith('/v1/') && !url.pathname.startsWith('/v1/widget')) seen.push({ status: r.status(), path: url.pathname + url.search });
  });
  return seen;
}

/** Waits until the first 50 ms of a wall-clock second (the server's rate windows are aligned to the epoch, and the tests share its clock). */
export async function startOfSecond(): Promise<void> {
  for (;;) {
    const ms = Date.now() % 1000;
    if (ms < 50) return;
    await new Promise((r) => setTimeout(r, 1000 - ms));
  }
}
