/**
 * Fixed-window rate limiting, the pure arithmetic. A window of `windowMs` starts at every
 * multiple of `windowMs` since the Unix epoch (seconds on the second, days at 00:00 UTC), so
 * every process sharing the accounts database agrees on the boundaries without coordination.
 * Where their clocks differ by at most a minute (or a window's length, when longer), the window
 * already stored by the one ahead is the current one; a stored window further ahead than that
 * is not shared (see `sharedWindowStart`).
 *
 * Invariants: a request is admitted only when EVERY window still has room, and then it
 * counts in every window; a rejected request (429) counts in none. The store applies this
 * function inside one write transaction, which makes the read-decide-write step atomic.
 */
import type { RateWindow } from './plans.js';

/** A persisted counter: requests admitted in the window starting at `windowStart` (ms epoch). */
export interface WindowCounter {
  readonly windowStart: number;
  readonly count: number;
}

export interface WindowState {
  readonly window: RateWindow;
  /** Requests admitted in the current window, this one included when admitted. */
  readonly used: number;
  readonly remaining: number;
  /** When the current window ends, ms since the epoch. */
  readonly resetAtMs: number;
}

export interface RateDecision {
  readonly admitted: boolean;
  /** One entry per window, in the order given. */
  readonly windows: readonly WindowState[];
  /** When rejected: the full window that frees up last (its reset is the Retry-After). */
  readonly blockedBy: WindowState | undefined;
  /** The instant it was decided at, ms since the epoch: its resets and Retry-After count from it. */
  readonly atMs: number;
}

export function windowStartMs(window: RateWindow, nowMs: number): number {
  return Math.floor(nowMs / window.windowMs) * window.windowMs;
}

/**
 * The clock skew (ms) up to which processes share a stored window that is ahead of theirs: a
 * minute, or the window's length when longer (a day window is shared over any skew under a day).
 */
export const SHARED_SKEW_MS = 60_000;

/**
 * The start (ms epoch) of the window a request at `nowMs` counts in, given the stored one.
 * - A stored window later than this clock's, by at most SHARED_SKEW_MS (or the window's length,
 *   when longer), was started by a process whose clock is ahead: it is the current one (its
 *   count holds), never reset to an earlier one. Processes whose clocks differ by that much or
 *   less then share one counter per window, the most advanced clock's (audit 67g F1: sharing
 *   only a window's length, a second, let two processes 1.5 s apart reset each other's count at
 *   every request, and a client alternating between them was never limited).
 * - A stored window further ahead than that cannot be shared: counting in it would hold this
 *   process to one window's requests for the whole skew (a clock 7.6 h behind: 5 requests of a
 *   "per second" plan in 7.6 h, and Retry-After 27568: audit 66d F6). This clock's own window
 *   starts afresh instead. Such clocks reset each other's count: keep clocks synchronised.
 */
export function sharedWindowStart(window: RateWindow, nowMs: number, stored: WindowCounter | undefined): number {
  const own = windowStartMs(window, nowMs);
  if (stored === undefined || stored.windowStart <= own) return own;
  return stored.windowStart - own <= Math.max(window.windowMs, SHARED_SKEW_MS) ? stored.windowStart : own;
}

/**
 * Decides one request against `windows`, given each window's stored counter (or undefined
 * when none was stored). Returns the decision and the counters to store back.
 */
export function decideRate(
  windows: readonly RateWindow[],
  counters: readonly (WindowCounter | undefined)[],
  nowMs: number,
): { decision: RateDecision; next: WindowCounter[] } {
  const current = windows.map((window, i) => {
    const stored = counters[i];
    const start = sharedWindowStart(window, nowMs, stored);
    const count = stored !== undefined && stored.windowStart === start ? stored.count : 0;
    return { window, start, count };
  });
  const admitted = current.every((c) => c.count < c.window.limit);
  const next = current.map((c) => ({ windowStart: c.start, count: admitted ? c.count + 1 : c.count }));
  const states: WindowState[] = current.map((c, i) => {
    const used = next[i]!.count;
    return { window: c.window, used, remaining: Math.max(0, c.window.limit - used), resetAtMs: c.start + c.window.windowMs };
  });
  let blockedBy: WindowState | undefined;
  if (!admitted) {
    for (const s of states) {
      if (s.used >= s.window.limit && (blockedBy === undefined || s.resetAtMs > blockedBy.resetAtMs)) blockedBy = s;
    }
  }
  return { decision: { admitted, windows: states, blockedBy, atMs: nowMs }, next };
}

/** Whole seconds from `nowMs` until `atMs`, rounded up, at least 1 (for Retry-After and `t=`). */
export function secondsUntil(atMs: number, nowMs: number): number {
  return Math.max(1, Math.ceil((atMs - nowMs) / 1000));
}

/**
 * The response headers describing a decision.
 * - `X-RateLimit-Limit/Remaining/Reset` describe ONE window, the binding one: the window that
 *   rejected the request, else the one with the fewest requests left (ties: the longer one).
 *   `X-RateLimit-Reset` is the Unix time in seconds when that window ends (GitHub's convention).
 * - `RateLimit-Policy` and `RateLimit` (IETF draft-ietf-httpapi-ratelimit-headers, structured
 *   field lists) describe every window: `q` quota, `w` window seconds, `r` remaining, `t`
 *   seconds until the window resets.
 * - `Retry-After` (seconds) on a rejection.
 */
export function rateLimitHeaders(decision: RateDecision, nowMs: number): Record<string, string> {
  let binding = decision.blockedBy;
  if (binding === undefined) {
    for (const s of decision.windows) {
      if (
        binding === undefined ||
        s.remaining < binding.remaining ||
        (s.remaining === binding.remaining && s.window.windowMs > binding.window.windowMs)
      ) {
        binding = s;
      }
    }
  }
  const headers: Record<string, string> = {};
  if (binding === undefined) return headers;
  headers['x-ratelimit-limit'] = String(binding.window.limit);
  headers['x-ratelimit-remaining'] = String(binding.remaining);
  headers['x-ratelimit-reset'] = String(Math.ceil(binding.resetAtMs / 1000));
  headers['ratelimit-policy'] = decision.windows
    .map((s) => `"${s.window.name}";q=${s.window.limit};w=${s.window.windowMs / 1000}`)
    .join(', ');
  headers['ratelimit'] = decision.windows
    .map((s) => `"${s.window.name}";r=${s.remaining};t=${secondsUntil(s.resetAtMs, nowMs)}`)
    .join(', ');
  if (decision.blockedBy !== undefined) headers['retry-after'] = String(secondsUntil(decision.blockedBy.resetAtMs, nowMs));
  return headers;
}
