import type { WeeklyHours } from '../schema/common.js';
import { compileToScratch, compiledScratch, isOpenInIntervalRange, type CompileOptions } from './weekly-intervals.js';

/** Opening state of a venue at an instant. UNKNOWN (no hours given) is not CLOSED. */
export const OpenState = { CLOSED: 0, OPEN: 1, UNKNOWN: 2 } as const;
export type OpenState = (typeof OpenState)[keyof typeof OpenState];

/** `scheduleOf` value of a venue whose hours are unknown. */
export const UNKNOWN_SCHEDULE = 0xffffffff;

/**
 * Columnar opening hours for all venues, indexed by the dense venue index.
 *
 * Identical compiled schedules are stored once (chains and importers repeat hours a lot):
 * - `scheduleOf[venue]` is the venue's schedule number, or {@link UNKNOWN_SCHEDULE};
 * - schedule `s` is the pairs `intervals[offsets[s] .. offsets[s + 1])` (Uint16 entries,
 *   `[start, end)` minute-of-week pairs as in weekly-intervals.ts);
 * - the empty schedule (known, never open) is an ordinary schedule with no pairs.
 * Cost: 4 bytes per venue plus 4 bytes per pair per DISTINCT schedule.
 */
export class HoursTable {
  readonly scheduleOf: Uint32Array;
  readonly offsets: Uint32Array;
  readonly intervals: Uint16Array;

  constructor(scheduleOf: Uint32Array, offsets: Uint32Array, intervals: Uint16Array) {
    this.scheduleOf = scheduleOf;
    this.offsets = offsets;
    this.intervals = intervals;
  }

  /** Number of venues. */
  get size(): number {
    return this.scheduleOf.length;
  }

  /** Number of distinct known schedules. */
  get scheduleCount(): number {
    return this.offsets.length - 1;
  }

  /** Bytes held by the typed arrays. */
  get byteLength(): number {
    return this.scheduleOf.byteLength + this.offsets.byteLength + this.intervals.byteLength;
  }

  /** State of venue `venueIndex` at local `minuteOfWeek` (0..10079) in the venue's own zone. */
  state(venueIndex: number, minuteOfWeek: number): OpenState {
    const s = this.scheduleOf[venueIndex];
    if (s === undefined) throw new RangeError(`venue index ${venueIndex} out of range 0..${this.size - 1}`);
    if (s === UNKNOWN_SCHEDULE) return OpenState.UNKNOWN;
    const lo = (this.offsets[s] as number) >>> 1;
    const hi = (this.offsets[s + 1] as number) >>> 1;
    return isOpenInIntervalRange(this.intervals, lo, hi, minuteOfWeek) ? OpenState.OPEN : OpenState.CLOSED;
  }

  /** The venue's compiled schedule as a view (no copy), or null when unknown. */
  intervalsOf(venueIndex: number): Uint16Array | null {
    const s = this.scheduleOf[venueIndex];
    if (s === undefined) throw new RangeError(`venue index ${venueIndex} out of range 0..${this.size - 1}`);
    if (s === UNKNOWN_SCHEDULE) return null;
    return this.intervals.subarray(this.offsets[s] as number, this.offsets[s + 1] as number);
  }
}

/** Builds a {@link HoursTable}: `add` once per venue in venue-index order, then `finish`. */
export class HoursTableBuilder {
  private scheduleOf: Uint32Array;
  private offsets: Uint32Array;
  private intervals: Uint16Array;
  private venues = 0;
  private schedules = 0;
  private used = 0; // entries of `intervals` in use
  // Open-addressing hash set of the distinct schedules, in typed arrays rather than a Map: at
  // 1M venues a Map's growing backing store lives on the JS heap and triggers full GCs that
  // must mark every venue record (seconds). `slots[i]` is schedule + 1 (0 = empty), linear
  // probing, load factor <= 1/2; `hashes[s]` is schedule s's content hash, kept for rehashing.
  private slots: Int32Array = new Int32Array(1024);
  private hashes: Uint32Array = new Uint32Array(64);
  private finished = false;

  /** `expectedVenues` only presizes the buffers; more may be added. */
  constructor(expectedVenues = 1024) {
    const n = Math.max(16, expectedVenues);
    this.scheduleOf = new Uint32Array(n);
    this.offsets = new Uint32Array(64);
    this.intervals = new Uint16Array(1024);
  }

  /** Adds the next venue's hours; returns its venue index. Throws `invalid_venue` on nonsense. */
  add(groups: WeeklyHours | undefined, options?: CompileOptions): number {
    if (this.finished) throw new Error('HoursTableBuilder.add after finish()');
    const entries = compileToScratch(groups, options);
    if (this.venues === this.scheduleOf.length) this.scheduleOf = grow32(this.scheduleOf, this.venues * 2);
    this.scheduleOf[this.venues] = entries < 0 ? UNKNOWN_SCHEDULE : this.intern(compiledScratch(), entries);
    return this.venues++;
  }

  /**
   * The schedule number of compiled weekly intervals (as {@link HoursTable.intervalsOf}
   * gives them), added when new: for a table built from other tables (compaction).
   */
  schedule(intervals: Uint16Array): number {
    return this.intern(intervals, intervals.length);
  }

  /** Adds the next venue with schedule `s` (from {@link schedule}, or UNKNOWN_SCHEDULE); returns its venue index. */
  addSchedule(s: number): number {
    if (this.finished) throw new Error('HoursTableBuilder.addSchedule after finish()');
    if (s !== UNKNOWN_SCHEDULE && !(s >= 0 && s < this.schedules)) throw new RangeError(`schedule ${s} out of range 0..${this.schedules - 1}`);
    if (this.venues === this.scheduleOf.length) this.scheduleOf = grow32(this.scheduleOf, this.venues * 2);
    this.scheduleOf[this.venues] = s;
    return this.venues++;
  }

  finish(): HoursTable {
    this.finished = true;
    this.offsets[this.schedules] = this.used;
    return new HoursTable(
      this.venues === this.scheduleOf.length ? this.scheduleOf : this.scheduleOf.slice(0, this.venues),
      this.offsets.slice(0, this.schedules + 1),
      this.intervals.slice(0, this.used),
    );
  }

  /** Schedule number of the first `length` entries of `compiled`, adding it when new. */
  private intern(compiled: Uint16Array, length: number): number {
    // FNV-1a over the entries; equal hashes are confirmed entry by entry.
    let hash = 0x811c9dc5;
    for (let i = 0; i < length; i++) hash = Math.imul(hash ^ (compiled[i] as number), 0x01000193);
    hash >>>= 0;
    const mask = this.slots.length - 1;
    let i = hash & mask;
    for (let entry = this.slots[i] as number; entry !== 0; entry = this.slots[i] as number) {
      const s = entry - 1;
      if (this.hashes[s] === hash && this.sameContent(s, compiled, length)) return s;
      i = (i + 1) & mask;
    }
    const s = this.schedules++;
    this.slots[i] = s + 1;
    if (s >= this.hashes.length) this.hashes = grow32(this.hashes, this.hashes.length * 2);
    this.hashes[s] = hash;
    if (s + 1 >= this.offsets.length) this.offsets = grow32(this.offsets, this.offsets.length * 2);
    this.offsets[s] = this.used;
    if (this.used + length > this.intervals.length) {
      const grown = new Uint16Array(Math.max(this.intervals.length * 2, this.used + length));
      grown.set(this.intervals);
      this.intervals = grown;
    }
    for (let k = 0; k < length; k++) this.intervals[this.used + k] = compiled[k] as number;
    this.used += length;
    this.offsets[s + 1] = this.used;
    if (2 * this.schedules > this.slots.length) this.rehash(this.slots.length * 2);
    return s;
  }

  private rehash(capacity: number): void {
    const slots = new Int32Array(capacity);
    const mask = capacity - 1;
    for (let s = 0; s < this.schedules; s++) {
      let i = (this.hashes[s] as number) & mask;
      while (slots[i] !== 0) i = (i + 1) & mask;
      slots[i] = s + 1;
    }
    this.slots = slots;
  }

  private sameContent(s: number, compiled: Uint16Array, length: number): boolean {
    const from = this.offsets[s] as number;
    const to = this.offsets[s + 1] as number;
    if (to - from !== length) return false;
    for (let i = 0; i < length; i++) if (this.intervals[from + i] !== compiled[i]) return false;
    return true;
  }
}

function grow32(a: Uint32Array, length: number): Uint32Array {
  const grown = new Uint32Array(length);
  grown.set(a);
  return grown;
}
