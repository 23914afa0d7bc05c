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

function formatWait(seconds: number): string {
  if (seconds < 90) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  if (seconds < 5400) return `${Math.round(seconds / 60)} minutes`;
  return `${Math.round(seconds / 3600)} hours`;
}

export class WidgetApi {
  constructor(
    private readonly key: string,
    private readonly base: string,
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
    let response: Response;
    try {
      response = await fetch(url, { ...init, headers: { ...(init.headers as Record<string, string> | undefined), 'API-Key': this.key }, signal: signal ?? null, credentials: 'omit' });
    } catch (err) {
      if ((err as Error).name === 'AbortError') throw err;
      throw new WidgetApiError(0, 'network', 'The venue search service cannot be reached. Check the connection and try again.');
    }
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
    throw new WidgetApiError(response.status, code, describeFailure(response.status, code, serverMessage, response.headers.get('retry-after')), serverMessage, names);
  }
}
