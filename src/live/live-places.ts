import { learnPlace, placesNamedBy, type AreaNameMemo, type Group, type LearntPlaces } from '../places/learnt-places.js';
import type { VenueRecord } from '../schema/venue.js';

/** What places are learnt from: a venue's id, address and point (a record has them). */
export type AddressedVenue = Pick<VenueRecord, 'id' | 'formattedAddress' | 'location'>;

/**
 * The venues naming one place, in parallel arrays (where each is, how its address spells
 * the place), in no particular order (learnPlace does not depend on it). A venue that leaves
 * is marked by id and taken out at the next {@link settle} (a scan that stops once every
 * leaving venue is found; learning the place again reads all its venues anyway): no index by
 * id is kept. The arrays are handed to learnPlace as they are.
 *
 * Invariant: a venue is here at most once. LivePlaces adds each current venue once, and a
 * batch takes a replaced venue out (remove) before it adds its new record (add, which
 * settles first, so that the new record is not taken for the leaving one).
 */
class PlaceMembers {
  private readonly ids: string[] = [];
  readonly lat: number[] = [];
  readonly lon: number[] = [];
  private readonly spellings: string[] = [];
  /** The ids of the venues leaving at the next settle (null: none). */
  private leaving: Set<string> | null = null;

  add(id: string, lat: number, lon: number, spelling: string): void {
    if (this.leaving !== null) this.settle();
    this.ids.push(id);
    this.lat.push(lat);
    this.lon.push(lon);
    this.spellings.push(spelling);
  }

  remove(id: string): void {
    (this.leaving ??= new Set()).add(id);
  }

  /** Takes the leaving venues out (each replaced by the last venue); returns how many are left. */
  settle(): number {
    const leaving = this.leaving;
    const { ids, lat, lon, spellings } = this;
    if (leaving !== null) {
      let n = ids.length;
      let found = 0;
      for (let i = 0; i < n && found < leaving.size; ) {
        if (!leaving.has(ids[i]!)) {
          i++;
          continue;
        }
        found++;
        n--;
        ids[i] = ids[n]!;
        lat[i] = lat[n]!;
        lon[i] = lon[n]!;
        spellings[i] = spellings[n]!;
      }
      ids.length = n;
      lat.length = n;
      lon.length = n;
      spellings.length = n;
      this.leaving = null;
    }
    return ids.length;
  }

  /** The venues as learnPlace reads them (the coordinates are this object's own arrays), once settled. */
  group(): Group {
    const spellings = new Map<string, number>();
    for (const spelling of this.spellings) spellings.set(spelling, (spellings.get(spelling) ?? 0) + 1);
    return { lat: this.lat, lon: this.lon, spellings };
  }
}

/**
 * Places learnt from a changing record set, kept up to date venue by venue: the venues
 * naming each area and postcode are kept per place (PlaceMembers), and a change re-learns
 * only the places the changed venues name (learnPlace over that place's venues). The result is
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
    const memo: AreaNameMemo = new Map();
    for (const r of records) this.add(r, memo);
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

  /** Adds a venue (`memo`: the build's, see AreaNameMemo). */
  add(r: AddressedVenue, memo?: AreaNameMemo): void {
    const [lat, lon] = r.location.coordinates;
    for (const p of placesNamedBy(r, memo)) {
      const groups = this.groups[p.kind];
      let members = groups.get(p.key);
      if (members === undefined) {
        members = new PlaceMembers();
        groups.set(p.key, members);
      }
      members.add(r.id, lat, lon, p.spelling);
      this.touched[p.kind].add(p.key);
    }
  }

  remove(r: AddressedVenue): void {
    for (const p of placesNamedBy(r)) {
      const members = this.groups[p.kind].get(p.key);
      if (members === undefined) continue;
      members.remove(r.id);
      this.touched[p.kind].add(p.key);
    }
  }

  /** Re-learns the places touched since the last flush. */
  flush(): void {
    for (const kind of ['postcode', 'area'] as const) {
      const groups = this.groups[kind];
      const touched = this.touched[kind];
      for (const key of touched) {
        const members = groups.get(key);
        let place;
        if (members !== undefined && members.settle() > 0) place = learnPlace(kind, key, members.group());
        else groups.delete(key);
        this.target.update(kind, key, place);
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
