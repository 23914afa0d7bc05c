import { learnPlace, placesNamedBy, type Group, type LearntPlaces } from '../places/learnt-places.js';
import type { VenueRecord } from '../schema/venue.js';

/** What places are learnt from: a venue's id, address and point (a record has them). */
export type AddressedVenue = Pick<VenueRecord, 'id' | 'formattedAddress' | 'location'>;

/**
 * The venues naming one place, each in a slot of parallel arrays (where it is, how its address
 * spells the place), found by id. A venue leaving moves the last slot into its own: the
 * order of the slots is not kept (learnPlace does not depend on it). The arrays are handed to
 * learnPlace as they are: no copy per place re-learnt.
 */
class PlaceMembers {
  private readonly slotOf = new Map<string, number>();
  private readonly ids: string[] = [];
  readonly lat: number[] = [];
  readonly lon: number[] = [];
  private readonly spellings: string[] = [];

  get size(): number {
    return this.ids.length;
  }

  /** Adds the venue `id`, or moves it when it is here already. */
  set(id: string, lat: number, lon: number, spelling: string): void {
    let slot = this.slotOf.get(id);
    if (slot === undefined) {
      slot = this.ids.length;
      this.slotOf.set(id, slot);
      this.ids.push(id);
    }
    this.lat[slot] = lat;
    this.lon[slot] = lon;
    this.spellings[slot] = spelling;
  }

  delete(id: string): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    this.slotOf.delete(id);
    const last = this.ids.length - 1;
    if (slot !== last) {
      const moved = this.ids[last]!;
      this.ids[slot] = moved;
      this.lat[slot] = this.lat[last]!;
      this.lon[slot] = this.lon[last]!;
      this.spellings[slot] = this.spellings[last]!;
      this.slotOf.set(moved, slot);
    }
    this.ids.pop();
    this.lat.pop();
    this.lon.pop();
    this.spellings.pop();
  }

  /** The members as learnPlace reads them (the coordinates are this object's own arrays). */
  group(): Group {
    const spellings = new Map<string, number>();
    for (const spelling of this.spellings) spellings.set(spelling, (spellings.get(spelling) ?? 0) + 1);
    return { lat: this.lat, lon: this.lon, spellings };
  }
}

/**
 * Places learnt from a changing record set, kept up to date venue by venue: the venues
 * naming each area and postcode are kept by venue id, and a change re-learns only the
 * places the changed venues name (learnPlace over that place's venues). The result is
 * written into a LearntPlaces (the one the engine's place resolver reads), so that it
 * always equals `new LearntPlaces(current records)` (learnPlace does not depend on the
 * order of a place's venues).
 */
export class LivePlaces {
  private target: LearntPlaces;
  /** The venues naming each place, by kind and key. */
  private readonly groups = { area: new Map<string, PlaceMembers>(), postcode: new Map<string, PlaceMembers>() };
  /** The places whose venues changed since the last flush, by kind. */
  private readonly touched = { area: new Set<string>(), postcode: new Set<string>() };

  /** Learns from `records` (the current set) and replaces everything `target` held. */
  constructor(target: LearntPlaces, records: Iterable<AddressedVenue>) {
    this.target = target;
    clear(target);
    for (const r of records) this.add(r);
    this.flush();
  }

  /**
   * Writes from now on into `target` (another engine's LearntPlaces, which its place
   * resolver may hold already: Engine.adopt), first replacing what it held by the places
   * learnt so far (copied: no venue is read, nothing learnt again).
   */
  retarget(target: LearntPlaces): void {
    if (target === this.target) return;
    this.flush();
    clear(target);
    const learnt = this.target.toJSON();
    for (const [key, place] of learnt.areas) target.update('area', key, place);
    for (const [code, place] of learnt.postcodes) target.update('postcode', code, place);
    this.target = target;
  }

  get places(): LearntPlaces {
    return this.target;
  }

  add(r: AddressedVenue): void {
    const [lat, lon] = r.location.coordinates;
    for (const p of placesNamedBy(r)) {
      const groups = this.groups[p.kind];
      let members = groups.get(p.key);
      if (members === undefined) {
        members = new PlaceMembers();
        groups.set(p.key, members);
      }
      members.set(r.id, lat, lon, p.spelling);
      this.touched[p.kind].add(p.key);
    }
  }

  remove(r: AddressedVenue): void {
    for (const p of placesNamedBy(r)) {
      const groups = this.groups[p.kind];
      const members = groups.get(p.key);
      if (members === undefined) continue;
      members.delete(r.id);
      if (members.size === 0) groups.delete(p.key);
      this.touched[p.kind].add(p.key);
    }
  }

  /** Re-learns the places touched since the last flush. */
  flush(): void {
    for (const kind of ['postcode', 'area'] as const) {
      const touched = this.touched[kind];
      for (const key of touched) {
        const members = this.groups[kind].get(key);
        this.target.update(kind, key, members === undefined ? undefined : learnPlace(kind, key, members.group()));
      }
      touched.clear();
    }
  }
}

/** Takes every place out of `places`. */
function clear(places: LearntPlaces): void {
  const saved = places.toJSON();
  for (const [key] of saved.areas) places.update('area', key, undefined);
  for (const [code] of saved.postcodes) places.update('postcode', code, undefined);
}
