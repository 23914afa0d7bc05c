/**
 * Fixed-window rate limiting, the pure arithmetic. A window of `windowMs` starts at every
 * multiple of `windowMs` since the Unix epoch (seconds on the second, days at 00:00 UTC), so
 * every process sharing the accounts database agrees on the boundaries without coordination.
 * Where their clocks differ by at most a minute, a process behind learns the lead of the one
 * ahead from the windows it stored, and decides at its own clock plus that lead (ClockLead);
 * a window stored one window ahead is the current one (see `sharedWindowStart`).
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
  /** The lead (ms, >= 0) of the clock followed over this process's own: `atMs` is its own clock plus this (ClockLead). */
  readonly leadMs: number;
}

export function windowStartMs(window: RateWindow, nowMs: number): number {
  return Math.floor(nowMs / window.windowMs) * window.windowMs;
}

/**
 * The clock skew (ms) up to which a process follows a clock ahead of its own (ClockLead): a
 * stored window up to a minute ahead of its own is followed; one further ahead (a clock hours
 * off) is not (audit 66d F6).
 */
export const SHARED_SKEW_MS = 60_000;

/**
 * What one process has learnt of a clock ahead of its own (ms, >= 0, never shrinking): it
 * decides every request at its clock plus this lead. A stored window two or more windows
 * ahead of the process's own, and at most SHARED_SKEW_MS ahead, was started by a clock that
 * far ahead, within a window: the lead grows by the gap less one window, so that the process
 * follows that clock from at most two windows behind it, never ahead of it (so the clock ahead
 * never learns a lead from it, and two clocks never push each other forward). Until
 * 2026-11-30 a process behind counted in the stored window until its own clock reached that
 * window's end: after one request served by a process 59 s ahead, a process on the true clock
 * admitted 4 requests in 10 s on a 5 per second plan, with Retry-After 59 (audit 68b F1).
 * One object per store instance (per process): the lead is a property of the clocks, not of
 * an account.
 */
export interface ClockLead {
  ms: number;
}

/** Learns from the stored counters read at `nowMs` (see ClockLead); returns the lead to decide with. */
function learnLead(windows: readonly RateWindow[], counters: readonly (WindowCounter | undefined)[], nowMs: number, lead: ClockLead): number {
  let grow = 0;
  windows.forEach((window, i) => {
    const stored = counters[i];
    if (stored === undefined) return;
    const gap = stored.windowStart - windowStartMs(window, nowMs + lead.ms);
    if (gap >= 2 * window.windowMs && gap <= SHARED_SKEW_MS) grow = Math.max(grow, gap - window.windowMs);
  });
  lead.ms += grow;
  return lead.ms;
}

/**
 * The start (ms epoch) of the window a request at `nowMs` counts in, given the stored one.
 * - A stored window later than this clock's by one window was started by a process whose clock
 *   is ahead, within two windows (after ClockLead, every clock within a minute is): it is the
 *   current one (its count holds), never reset to an earlier one. Processes so close then share
 *   one counter per window, the most advanced clock's (audit 67g F1: two processes 1.5 s apart
 *   must not reset each other's count at every request, or a client alternating between them
 *   is never limited).
 * - A stored window further ahead cannot be shared: counting in it would hold this process to
 *   one window's requests for the whole skew (a clock 7.6 h behind: 5 requests of a "per
 *   second" plan in 7.6 h, and Retry-After 27568: audit 66d F6). This clock's own window
 *   starts afresh instead. Clocks more than a minute apart reset each other's count: keep
 *   clocks synchronised.
 */
export function sharedWindowStart(window: RateWindow, nowMs: number, stored: WindowCounter | undefined): number {
  const own = windowStartMs(window, nowMs);
  if (stored === undefined || stored.windowStart <= own) return own;
  return stored.windowStart - own <= window.windowMs ? stored.windowStart : own;
}

/**
 * Decides one request against `windows`, given each window's stored counter (or undefined
 * when none was stored), at `nowMs` plus the lead the process has learnt (`lead`, updated
 * here; a fresh one when omitted). Returns the decision (at that instant) and the counters to
 * store back.
 */
export function decideRate(
  windows: readonly RateWindow[],
  counters: readonly (WindowCounter | undefined)[],
  nowMs: number,
  lead: ClockLead = { ms: 0 },
): { decision: RateDecision; next: WindowCounter[] } {
  const leadMs = learnLead(windows, counters, nowMs, lead);
  const atMs = nowMs + leadMs;
  const current = windows.map((window, i) => {
    const stored = counters[i];
    const start = sharedWindowStart(window, atMs, stored);
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
  return { decision: { admitted, windows: states, blockedBy, atMs, leadMs }, next };
}

/** Whole seconds from `nowMs` until `atMs`, rounded up, at least 1 (for Retry-After and `t=`). */
export function secondsUntil(atMs: number, nowMs: number): number {
  return Math.max(1, Math.ceil((atMs - nowMs) / 1000));
}

/**
 * The response headers describing a decision.
 * - `X-RateLimit-Limit/Remaining/Reset` describe ONE window, the binding one: the window that
 *   rejected the request, else the one with the fewest requests left (ties: the longer one).
 *   `X-RateLimit-Reset` is the Unix time in seconds when that window ends (GitHub's convention),
 *   on this process's own clock: a window of a clock followed ahead (`leadMs`) ends that much
 *   earlier on it, so a client on the true clock sleeping until Reset waits about `Retry-After`,
 *   not the lead (audit 68j F2: a 1 s window announced 59 s ahead).
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
  headers['x-ratelimit-reset'] = String(Math.ceil((binding.resetAtMs - decision.leadMs) / 1000));
  headers['ratelimit-policy'] = decision.windows
    .map((s) => `"${s.window.name}";q=${s.window.limit};w=${s.window.windowMs / 1000}`)
    .join(', ');
  headers['ratelimit'] = decision.windows
    .map((s) => `"${s.window.name}";r=${s.remaining};t=${secondsUntil(s.resetAtMs, nowMs)}`)
    .join(', ');
  if (decision.blockedBy !== undefined) headers['retry-after'] = String(secondsUntil(decision.blockedBy.resetAtMs, nowMs));
  return headers;
}
