import { LocalClock, MINUTES_PER_DAY, MINUTES_PER_WEEK, OpenState, openThrough } from '../hours/index.js';
import type { OpeningStates } from './opening-states.js';

const MS_PER_MINUTE = 60_000;
/** Epoch day 0 (1970-01-01) was a Thursday: day 3 of a Monday-first week. */
const EPOCH_DAY_OF_WEEK = 3;
/**
 * How far past the departure each zone's offset is checked once per query (two Intl calls):
 * an arrival plus stay within it is read by arithmetic while the offset held. Most lie within
 * it (a 50 km walk is ~14 h, a stay at most 24 h); one beyond it (a long route: 1,000 km by
 * DRIVE, 180 km on foot) is read from the clock, venue by venue.
 */
const HORIZON_MS = 48 * 60 * MS_PER_MINUTE;

/**
 * Opening state of venues at per-venue instants (docs/search.md, "Open on arrival"): each
 * venue is read at its own arrival (departure + its travel), and must stay open
 * `stayMinutes` real minutes after it (a clock change during the stay: stateAcrossChange).
 * Per query, each time zone met costs two Intl calls (its UTC offset at the departure and
 * 48 hours later); while they agree, a venue's local minute within those 48 hours is
 * arithmetic. A zone whose clocks change inside the horizon, and an arrival past it, are read
 * from the clock per venue (memoised per UTC minute). Set the venue's instant with `arriving`, then ask.
 */
export class ArrivalStates {
  private readonly opening: OpeningStates;
  private readonly clock = new LocalClock();
  private readonly offsetOfZone: Int32Array;
  /** 1: offset constant over the horizon; 2: not; per zone, valid when stamped. */
  private readonly stableOfZone: Uint8Array;
  private readonly stampOfZone: Uint32Array;
  private generation = 0;
  private departureMs = 0;
  private stay = 0;
  private arrivalMs = 0;

  constructor(opening: OpeningStates) {
    this.opening = opening;
    const zones = opening.zones.names.length;
    this.offsetOfZone = new Int32Array(zones);
    this.stableOfZone = new Uint8Array(zones);
    this.stampOfZone = new Uint32Array(zones);
  }

  /** Starts a query: departures at `departureMs` (UTC ms), a stay of `stayMinutes`. */
  begin(departureMs: number, stayMinutes: number): this {
    this.departureMs = departureMs;
    this.stay = stayMinutes;
    this.generation = (this.generation + 1) >>> 0;
    if (this.generation === 0) {
      this.stampOfZone.fill(0);
      this.generation = 1;
    }
    return this;
  }

  /** The instant (UTC ms) the next `state` / `isOpen` reads. */
  arriving(arrivalMs: number): this {
    this.arrivalMs = arrivalMs;
    return this;
  }

  /** Arrival instant (UTC ms) after `minutes` of travel: the departure plus them, to the ms. */
  after(minutes: number): number {
    return this.departureMs + Math.floor(minutes * MS_PER_MINUTE);
  }

  /** Venue i's local minute of the week at the current arrival. */
  private minuteOf(i: number): number {
    const zones = this.opening.zones;
    const z = zones.codes[i]!;
    const name = zones.names[z]!;
    if (this.stampOfZone[z] !== this.generation) {
      const at = this.clock.utcOffsetMinutes(name, this.departureMs);
      const later = this.clock.utcOffsetMinutes(name, this.departureMs + HORIZON_MS);
      this.offsetOfZone[z] = at;
      this.stableOfZone[z] = at === later ? 1 : 2;
      this.stampOfZone[z] = this.generation;
    }
    if (this.stableOfZone[z] !== 1 || this.beyondHorizon()) return this.clock.minuteOfWeek(name, this.arrivalMs);
    const local = Math.floor(this.arrivalMs / MS_PER_MINUTE) + this.offsetOfZone[z]! + EPOCH_DAY_OF_WEEK * MINUTES_PER_DAY;
    return ((local % MINUTES_PER_WEEK) + MINUTES_PER_WEEK) % MINUTES_PER_WEEK;
  }

  /** OpenState of venue i: OPEN when open from the arrival through the stay (CLOSED 0, OPEN 1, UNKNOWN 2). */
  state(i: number): number {
    const minute = this.minuteOf(i); // stamps the zone
    const z = this.opening.zones.codes[i]!;
    if (this.stay === 0 || (this.stableOfZone[z] === 1 && !this.beyondHorizon())) return openThrough(this.opening.hours, i, minute, this.stay);
    return this.stateAcrossChange(i, this.opening.zones.names[z]!, minute);
  }

  /** Whether the current arrival's stay ends past the horizon the zones' offsets were checked over. */
  private beyondHorizon(): boolean {
    return this.arrivalMs + this.stay * MS_PER_MINUTE > this.departureMs + HORIZON_MS;
  }

  /**
   * OpenState of venue i for a stay during which its zone's clocks may change: the stay is in
   * real minutes, so it is read in two pieces split at the change (found by bisection over
   * whole minutes: transitions fall on whole UTC minutes), each from its own wall-clock minute.
   * 00:45 GMT + 30 minutes on the night clocks go forward reads 00:45-00:59 GMT, then
   * 02:00-02:14 BST. One change per stay at most (a stay is at most 24 hours).
   */
  private stateAcrossChange(i: number, zone: string, minute: number): number {
    const clock = this.clock;
    const start = this.arrivalMs;
    const before = clock.utcOffsetMinutes(zone, start);
    if (clock.utcOffsetMinutes(zone, start + this.stay * MS_PER_MINUTE) === before) return openThrough(this.opening.hours, i, minute, this.stay);
    // the offset is `before` lo minutes in, and changed hi minutes in
    let lo = 0;
    let hi = this.stay;
    while (hi - lo > 1) {
      const mid = (lo + hi) >>> 1;
      if (clock.utcOffsetMinutes(zone, start + mid * MS_PER_MINUTE) === before) lo = mid;
      else hi = mid;
    }
    const first = openThrough(this.opening.hours, i, minute, hi);
    if (first !== OpenState.OPEN || hi === this.stay) return first;
    return openThrough(this.opening.hours, i, clock.minuteOfWeek(zone, start + hi * MS_PER_MINUTE), this.stay - hi);
  }

  /** Whether venue i is open at the arrival instant itself (the result's `isOpen`). */
  isOpen(i: number): boolean {
    return openThrough(this.opening.hours, i, this.minuteOf(i), 0) === OpenState.OPEN;
  }
}
