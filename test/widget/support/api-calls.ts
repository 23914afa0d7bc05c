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

/**
 * Starts recording, in the page, the words of every notice banner shown from now on; the
 * result reads them. The rate-limit wait's notice goes (hidden, emptied) when the call is sent,
 * within a second: waiting for it to show and then reading it in another round trip could find
 * it gone on a busy machine. A MutationObserver sees it in the task that showed it.
 */
export async function recordNotices(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const notice = document.querySelector<HTMLElement>('#notice')!;
    const shown: string[] = [];
    (window as unknown as { shownNotices: string[] }).shownNotices = shown;
    new MutationObserver(() => {
      if (!notice.hidden && notice.textContent !== '' && notice.textContent !== shown.at(-1)) shown.push(notice.textContent ?? '');
    }).observe(notice, { attributes: true, childList: true, characterData: true, subtree: true });
  });
  return () => page.evaluate(() => (window as unknown as { shownNotices: string[] }).shownNotices);
}
