/**
 * The widget's calls to the /v1 API, with the public key in the API-Key header. URLs are
 * resolved against the page (/v1/widget/ -> /v1/find), so the widget works under any host or
 * path prefix. Every failure becomes a `WidgetApiError` whose message a person can act on.
 */

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

/** Resolves after `ms`, or rejects with an AbortError when `signal` aborts first. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) return reject(new DOMException('aborted', 'AbortError'));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new DOMException('aborted', 'AbortError'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * The page's own calls never turn its plan's rate limit into a failure (audit 67c F1): after an
 * answer whose `RateLimit` header says no call is left, the next call waits for the window to
 * reset; a call refused with 429 anyway (another visitor of the site used the shared key) is sent
 * once more after its `Retry-After`. Both waits are capped (RATE_WAIT_CAP_SECONDS) and reported
 * through `onWait` (seconds while some call waits, undefined when none does), so the page can
 * say it is waiting. An aborted call stops waiting.
 */
export class WidgetApi {
  /** performance.now() before which no call is sent (the plan's window is used up). */
  private admittedAt = 0;
  private waiting = 0;

  constructor(
    private readonly key: string,
    private readonly base: string,
    private readonly onWait: (seconds: number | undefined) => void = () => {},
  ) {}

  get<T>(path: string, params: Record<string, string | number | undefined>, signal?: AbortSignal): Promise<T> {
    const url = new URL(path, this.base);
    for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, String(value));
    return this.call<T>(url, { method: 'GET' }, signal);
  }

  post<T>(path: string, body: unknown, signal?: AbortSignal): Promise<T> {
    return this.call<T>(new URL(path, this.base), { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }, signal);
  }

  private async call<T>(url: URL, init: RequestInit, signal?: AbortSignal): Promise<T> {
    await this.wait(this.admittedAt - performance.now(), signal);
    try {
      return await this.send<T>(url, init, signal);
    } catch (err) {
      const retryAfter = err instanceof WidgetApiError && err.status === 429 ? err.retryAfterSeconds : undefined;
      if (retryAfter === undefined || retryAfter > RATE_WAIT_CAP_SECONDS) throw err;
      await this.wait(retryAfter * 1000, signal);
      return this.send<T>(url, init, signal);
    }
  }

  /** Waits `ms` (nothing when <= 0), telling `onWait` while any call waits. */
  private async wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
    if (ms <= 0) return;
    this.waiting++;
    this.onWait(Math.ceil(ms / 1000));
    try {
      await sleep(ms, signal);
    } finally {
      this.waiting--;
      if (this.waiting === 0) this.onWait(undefined);
    }
  }

  private async send<T>(url: URL, init: RequestInit, signal?: AbortSignal): Promise<T> {
    let response: Response;
    try {
      response = await fetch(url, { ...init, headers: { ...(init.headers as Record<string, string> | undefined), 'API-Key': this.key }, signal: signal ?? null, credentials: 'omit' });
    } catch (err) {
      if ((err as Error).name === 'AbortError') throw err;
      throw new WidgetApiError(0, 'network', 'The venue search service cannot be reached. Check the connection and try again.');
    }
    const wait = secondsUntilAdmitted(response.headers.get('ratelimit'));
    if (wait !== undefined) this.admittedAt = Math.max(this.admittedAt, performance.now() + wait * 1000);
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
