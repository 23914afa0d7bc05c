/**
 * The widget's calls to the /v1 API, with the public key in the API-Key header. URLs are
 * resolved against the page (/v1/widget/ -> /v1/find), so the widget works under any host or
 * path prefix. Every failure becomes a `WidgetApiError` whose message a person can act on.
 */

import { pause, SharedPacing } from './shared-pacing.js';

export class WidgetApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** The service's own message ('' without one): some carry more than the page says (place suggestions). */
    readonly serverMessage = '',
    /** The envelope's `suggestions` (unknown_place), when it has them. */
    readonly suggestions?: readonly string[],
  ) {
    super(message);
    this.name = 'WidgetApiError';
  }

  /** A refusal's `Retry-After`, whole seconds, when it has one. */
  retryAfterSeconds: number | undefined;
}

/** The service's error envelope (src/http/http-errors.ts): `{ message, type, code, param?, suggestions? }`. */
interface ErrorEnvelope {
  message?: string;
  code?: string;
  suggestions?: unknown;
}

/** The message shown on the page for a failed call; the server's own words for bad input. */
export function describeFailure(status: number, code: string, serverMessage: string, retryAfter: string | null): string {
  if (status === 429) {
    const wait = retryAfter !== null && /^\d+$/.test(retryAfter) ? ` Try again in ${formatWait(Number(retryAfter))}.` : ' Try again later.';
    return `This site's venue search has reached its plan's request limit.${wait}`;
  }
  if (status === 402) return 'This site\'s venue search account has run out of credit, so searches are paused. The site owner needs to top it up.';
  if (code === 'origin_not_allowed') return 'This widget\'s key is not allowed on this site. The site owner can add the site to the key\'s allowed origins.';
  if (status === 401) return 'This widget\'s key is not valid any more (revoked or rotated). The site owner needs to update it.';
  if (status === 403) return `This widget's key may not do that: ${serverMessage}`;
  if (status >= 500) return 'The venue search service had a problem. Please try again in a moment.';
  return serverMessage === '' ? `The request failed (HTTP ${status}).` : serverMessage;
}

/** The banner while a call waits for the plan's rate limit (api.ts `onWait`). */
export function waitingWords(seconds: number): string {
  return `This site's venue search is at its plan's request limit; continuing in ${formatWait(seconds)}…`;
}

function formatWait(seconds: number): string {
  if (seconds < 90) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  if (seconds < 5400) return `${Math.round(seconds / 60)} minutes`;
  return `${Math.round(seconds / 3600)} hours`;
}

/**
 * The longest the page waits, seconds, for its plan's rate limit before a call (the `RateLimit`
 * header said none is left) or before retrying a refused one (`Retry-After`). A longer wait (a
 * daily limit) is not waited out: the call is sent, or fails, and the banner says how long.
 */
export const RATE_WAIT_CAP_SECONDS = 10;

/**
 * Seconds until the plan admits another call, from the IETF `RateLimit` header
 * (`"second";r=0;t=1, "day";r=298;t=80000`): the longest `t` of the windows with `r=0` that
 * reset within the cap; undefined when a call may go now (or the wait is not the page's to wait).
 */
export function secondsUntilAdmitted(rateLimit: string | null): number | undefined {
  if (rateLimit === null) return undefined;
  let wait: number | undefined;
  for (const item of rateLimit.split(',')) {
    const remaining = /;\s*r=(\d+)/.exec(item)?.[1];
    const reset = /;\s*t=(\d+)/.exec(item)?.[1];
    if (remaining !== '0' || reset === undefined) continue;
    const t = Number(reset);
    if (t <= RATE_WAIT_CAP_SECONDS) wait = Math.max(wait ?? 0, t);
  }
  return wait;
}

/** Rejects with an AbortError when `signal` aborts before `work` settles; else settles as `work` does. */
function unlessAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return work;
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new DOMException('aborted', 'AbortError'));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * The page's own calls never turn its plan's rate limit into a failure (audit 67c F1, 68a F1 and
 * F2). Every call of the page's widgets that share this key takes its turn (shared-pacing.ts):
 * one call is sent at a time, in order; after an answer whose `RateLimit` header says a window
 * has no call left, the turn is kept until that window resets, so the next waiting call goes
 * in the next window, alone. A call refused with 429 anyway (another visitor of the site used
 * the shared key) keeps the turn and is sent again after its `Retry-After`, as long as the
 * waits of that call stay within RATE_WAIT_CAP_SECONDS. Waits are reported through `onWait`
 * (seconds while some call waits, undefined when none does), so the page can say it is waiting.
 * An aborted call leaves the queue at once; one already sent is still read to its end (its
 * answer counted in the window, and its header says for how long) but its caller is not told.
 */
export class WidgetApi {
  private waiting = 0;
  private readonly pacing: SharedPacing;

  constructor(
    private readonly key: string,
    private readonly base: string,
    private readonly onWait: (seconds: number | undefined) => void = () => {},
  ) {
    this.pacing = new SharedPacing(base, key);
  }

  get<T>(path: string, params: Record<string, string | number | undefined>, signal?: AbortSignal): Promise<T> {
    const url = new URL(path, this.base);
    for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, String(value));
    return this.call<T>(url, { method: 'GET' }, signal);
  }

  post<T>(path: string, body: unknown, signal?: AbortSignal): Promise<T> {
    return this.call<T>(new URL(path, this.base), { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }, signal);
  }

  private call<T>(url: URL, init: RequestInit, signal?: AbortSignal): Promise<T> {
    // queued behind a window some widget of the page keeps (now or once the call ahead is
    // answered): the banner says for how long
    const ends: (() => void)[] = [];
    let shown = false;
    const showQueued = (untilMs: number): void => {
      if (shown || untilMs <= Date.now()) return;
      shown = true;
      ends.push(this.showWait(untilMs - Date.now()));
    };
    showQueued(this.pacing.heldUntil());
    const unwatch = this.pacing.watchHold(showQueued);
    const aborted = (): boolean => signal?.aborted === true;
    const turn = this.pacing.run<T>(async (hold) => {
      unwatch();
      for (const end of ends.splice(0)) end();
      let waitedSeconds = 0;
      for (;;) {
        if (aborted()) throw new DOMException('aborted', 'AbortError');
        try {
          return await this.send<T>(url, init, hold);
        } catch (err) {
          const retryAfter = err instanceof WidgetApiError && err.status === 429 ? err.retryAfterSeconds : undefined;
          if (retryAfter === undefined || waitedSeconds + retryAfter > RATE_WAIT_CAP_SECONDS || aborted()) throw err;
          waitedSeconds += retryAfter;
          const end = this.showWait(retryAfter * 1000);
          ends.push(end);
          await pause(retryAfter * 1000);
          end();
        }
      }
    }, signal);
    return unlessAborted(turn, signal).finally(() => {
      unwatch();
      for (const end of ends.splice(0)) end();
    });
  }

  /** Tells `onWait` a call waits `ms`; the returned function (idempotent) says it no longer does. */
  private showWait(ms: number): () => void {
    this.waiting++;
    this.onWait(Math.ceil(ms / 1000));
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.waiting--;
      if (this.waiting === 0) this.onWait(undefined);
    };
  }

  /** One request; `hold` keeps the key's turn until the window its `RateLimit` header says is used up resets. */
  private async send<T>(url: URL, init: RequestInit, hold: (untilMs: number) => void): Promise<T> {
    let response: Response;
    try {
      response = await fetch(url, { ...init, headers: { ...(init.headers as Record<string, string> | undefined), 'API-Key': this.key }, credentials: 'omit' });
    } catch {
      throw new WidgetApiError(0, 'network', 'The venue search service cannot be reached. Check the connection and try again.');
    }
    const wait = secondsUntilAdmitted(response.headers.get('ratelimit'));
    if (wait !== undefined) hold(Date.now() + wait * 1000);
    if (response.ok) return (await response.json()) as T;
    let envelope: ErrorEnvelope = {};
    try {
      envelope = (await response.json()) as ErrorEnvelope;
    } catch {
      // a non-JSON error body (a proxy's page): the status alone explains it
    }
    const code = envelope.code ?? 'http_error';
    const serverMessage = envelope.message ?? '';
    const { suggestions } = envelope;
    const names = Array.isArray(suggestions) && suggestions.every((s) => typeof s === 'string') ? (suggestions as string[]) : undefined;
    const retryAfter = response.headers.get('retry-after');
    const error = new WidgetApiError(response.status, code, describeFailure(response.status, code, serverMessage, retryAfter), serverMessage, names);
    if (retryAfter !== null && /^\d+$/.test(retryAfter)) error.retryAfterSeconds = Number(retryAfter);
    throw error;
  }
}
