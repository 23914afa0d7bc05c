import { HoursTableBuilder, LocalClock, OpenState, UNKNOWN_SCHEDULE, ZoneTableBuilder, type HoursTable, type ZoneTable } from '../hours/index.js';
import { VenueSearchError, isVenueSearchError } from '../errors.js';
import type { WeeklyHours } from '../schema/common.js';
import { PickedFields } from '../store/picked-fields.js';
import type { VenueStore } from '../store/venue-store.js';

/**
 * Opening state of venues at one instant, for the search's hot loop. The hours table and
 * the zone table are built once from the store (or passed in when the engine already has
 * them); per query, the local minute of the week is computed once per distinct time zone
 * met among the candidates (an Intl call each), never per venue.
 */
export class OpeningStates {
  readonly hours: HoursTable;
  readonly zones: ZoneTable;
  private readonly clock = new LocalClock();
  private readonly minuteOfZone: Uint16Array;
  private readonly stampOfZone: Uint32Array;
  private generation = 0;
  private instantMs = 0;
  // Memo per distinct schedule: the local minute of week it was last evaluated at (-1: never)
  // and its state then. A schedule's state at a minute never changes, and the venues of a
  // query share few schedules and one or two zones, so most venues cost two array reads.
  private readonly memoMinute: Int16Array;
  private readonly memoState: Uint8Array;

  constructor(store: VenueStore, tables: { hours?: HoursTable; zones?: ZoneTable } = {}) {
    const built = tables.hours === undefined || tables.zones === undefined ? buildOpeningTables(store) : null;
    this.hours = tables.hours ?? built!.hours;
    this.zones = tables.zones ?? built!.zones;
    this.minuteOfZone = new Uint16Array(this.zones.names.length);
    this.stampOfZone = new Uint32Array(this.zones.names.length);
    this.memoMinute = new Int16Array(this.hours.scheduleCount).fill(-1);
    this.memoState = new Uint8Array(this.hours.scheduleCount);
  }

  /** Starts answering for `instantMs` (UTC ms); forgets the previous instant's minutes. */
  at(instantMs: number): this {
    this.instantMs = instantMs;
    this.generation = (this.generation + 1) >>> 0;
    if (this.generation === 0) {
      this.stampOfZone.fill(0);
      this.generation = 1;
    }
    return this;
  }

  /** OpenState (CLOSED 0, OPEN 1, UNKNOWN 2) of venue i at the current instant. */
  state(i: number): number {
    const z = this.zones.codes[i]!;
    if (this.stampOfZone[z] !== this.generation) {
      this.minuteOfZone[z] = this.clock.minuteOfWeek(this.zones.names[z]!, this.instantMs);
      this.stampOfZone[z] = this.generation;
    }
    const minute = this.minuteOfZone[z]!;
    const s = this.hours.scheduleOf[i]!;
    if (s === UNKNOWN_SCHEDULE) return OpenState.UNKNOWN;
    if (this.memoMinute[s] === minute) return this.memoState[s]!;
    const state = this.hours.state(i, minute);
    this.memoMinute[s] = minute;
    this.memoState[s] = state;
    return state;
  }

  isOpen(i: number): boolean {
    return this.state(i) === OpenState.OPEN;
  }
}

/** The keys buildOpeningTables reads of each venue, at these places of PickedFields.values. */
const HOURS = 0;
const TIME_ZONE = 1;
const OPENING_KEYS = ['regularOpeningHours', 'timeZone'];

/**
 * The opening-hours and time-zone tables of every venue, in dense order: each venue's
 * weekly hours compiled, and its zone (its own `timeZone`, else derived from its
 * coordinates). Reads two keys of every record, without building the records; an error
 * names the venue's id.
 */
export function buildOpeningTables(store: VenueStore): { hours: HoursTable; zones: ZoneTable } {
  const hours = new HoursTableBuilder(store.size);
  const zones = new ZoneTableBuilder(store.size);
  const picked = new PickedFields(OPENING_KEYS);
  const values = picked.values;
  for (let i = 0; i < store.size; i++) {
    store.pick(i, picked);
    try {
      hours.add(values[HOURS] as WeeklyHours | undefined);
      zones.add(store.lat[i]!, store.lon[i]!, values[TIME_ZONE] as string | undefined);
    } catch (err) {
      // the id is read only now: reading every venue's would cost a text each
      if (!isVenueSearchError(err) || err.recordId !== undefined) throw err;
      throw new VenueSearchError(err.code, err.message, { ...(err.param === undefined ? {} : { param: err.param }), value: err.value, recordId: store.id(i) });
    }
  }
  return { hours: hours.finish(), zones: zones.finish() };
}
