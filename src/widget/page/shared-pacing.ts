/**
 * One pacing for every widget of a page that shares a key (audit 68a F1, F2): a key's calls
 * are sent one at a time, in the order they were asked, and a call that used up its plan's
 * window keeps the turn until the window resets. So two calls waiting for the same window
 * never go in it together, whether they come from one widget or from two widgets (iframes)
 * of one page.
 *
 * The turn is an exclusive Web Lock named after the API base and the key: Web Locks are shared
 * by the documents of one origin in one storage partition (the widgets of one page, and the
 * same site's other tabs), and a request waiting for a lock is dropped when its signal aborts.
 * Where Web Locks are missing (a page served over plain http), a FIFO queue of this document
 * stands in, so the widgets of a page then pace separately (docs/widget.md).
 *
 * When the turn is held past the answer (`holdUntil`), that time (Date.now() ms) is told to
 * this document's watchers and written to localStorage (best effort; its `storage` event tells
 * the other widgets' watchers), so a call queued behind it can say how long it waits.
 */

/** The longest one call keeps the turn for its answer (and a retry after Retry-After), ms; a window it used up is still waited out. */
export const LONGEST_TURN_MS = 15_000;

/** A turn's work: `holdUntil(ms)` keeps the turn until that Date.now() time after the work ends. */
export type Turn<T> = (holdUntil: (untilMs: number) => void) => Promise<T>;

interface LockManagerLike {
  request(name: string, options: { signal?: AbortSignal }, callback: () => Promise<void>): Promise<void>;
}

function abortError(): DOMException {
  return new DOMException('aborted', 'AbortError');
}

/** Resolves after `ms` (the window's own time: not cut short by any one call's abort). */
export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}

/** This document's stand-in for Web Locks: the tail of each name's queue. */
const localTails = new Map<string, Promise<void>>();

function localRequest(name: string, signal: AbortSignal | undefined, callback: () => Promise<void>): Promise<void> {
  const before = localTails.get(name) ?? Promise.resolve();
  const run = before.then(() => {
    if (signal?.aborted === true) throw abortError();
    return callback();
  });
  const tail = run.catch(() => {});
  localTails.set(name, tail);
  void tail.then(() => {
    if (localTails.get(name) === tail) localTails.delete(name);
  });
  return run;
}

export class SharedPacing {
  private readonly lockName: string;
  private readonly storageKey: string;
  private localHoldUntil = 0;
  private readonly holdWatchers = new Set<(untilMs: number) => void>();

  constructor(base: string, key: string) {
    // a lock name may not start with '-'; the key is public (it is in the page's URL)
    this.lockName = `venue-widget-pacing ${new URL(base).origin} ${key}`;
    this.storageKey = this.lockName;
    // another widget of the page keeps the turn for its window (its localStorage write)
    addEventListener('storage', (e) => {
      if (e.key === this.storageKey && e.newValue !== null) this.heldTill(Number(e.newValue) || 0);
    });
  }

  /** Calls `watcher` with the time (Date.now() ms) each time some widget keeps the turn for a window; returns the unwatch. */
  watchHold(watcher: (untilMs: number) => void): () => void {
    this.holdWatchers.add(watcher);
    return () => this.holdWatchers.delete(watcher);
  }

  private heldTill(untilMs: number): void {
    for (const watcher of Array.from(this.holdWatchers)) watcher(untilMs);
  }

  /** Date.now() ms until which some widget of the page keeps the turn for its window (0: none known). */
  heldUntil(): number {
    let shared = 0;
    try {
      shared = Number(localStorage.getItem(this.storageKey) ?? 0) || 0;
    } catch {
      // storage blocked in this frame: only this widget's own hold is known
    }
    return Math.max(shared, this.localHoldUntil);
  }

  /**
   * Runs `turn` when the key's turn comes; rejects with an AbortError, without running it, when
   * `signal` aborts first. The caller gets the turn's outcome as soon as the work ends; the turn
   * itself is kept until the time the work asked to hold it.
   */
  run<T>(turn: Turn<T>, signal?: AbortSignal): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (signal?.aborted === true) return reject(abortError());
      const callback = async (): Promise<void> => {
        let holdUntil = 0;
        const hold = (untilMs: number): void => {
          holdUntil = Math.max(holdUntil, untilMs);
          this.localHoldUntil = Math.max(this.localHoldUntil, untilMs);
          try {
            localStorage.setItem(this.storageKey, String(holdUntil));
          } catch {
            // best effort: only the wait's words depend on it
          }
          this.heldTill(holdUntil);
        };
        const work = turn(hold).then(resolve, reject);
        // a call that hangs (a lost connection) keeps the others from their turns for a bounded time only
        await Promise.race([work, pause(LONGEST_TURN_MS)]);
        await pause(holdUntil - Date.now());
      };
      const locks = (navigator as Navigator & { locks?: LockManagerLike }).locks;
      const options = signal === undefined ? {} : { signal };
      let started = false;
      const once = (): Promise<void> => {
        started = true;
        return callback();
      };
      // A page embedded by another site (a third-party iframe, or one in a file:// page) may be
      // denied Web Locks (SecurityError) where its storage is partitioned or blocked: its calls
      // then take turns in this document only, as without Web Locks. An abort is not retried.
      const viaLocks = async (): Promise<void> => {
        try {
          await locks!.request(this.lockName, options, once);
        } catch (err) {
          if (started || (err as DOMException).name === 'AbortError') throw err;
          await localRequest(this.lockName, signal, once);
        }
      };
      const queued = locks !== undefined ? viaLocks() : localRequest(this.lockName, signal, once);
      queued.catch(reject);
    });
  }
}
