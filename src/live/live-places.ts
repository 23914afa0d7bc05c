import { learnPlace, placesNamedBy, type AreaNameMemo, type Group, type LearntPlaces } from '../places/learnt-places.js';
import type { VenueRecord } from '../schema/venue.js';

/** What places are learnt from: a venue's address and point (a record has them). */
export type AddressedVenue = Pick<VenueRecord, 'formattedAddress' | 'location'>;

/** A venue leaving a place: what it added (see PlaceMembers). */
interface LeavingEntry {
  readonly lat: number;
  readonly lon: number;
  readonly spelling: string;
}

/**
 * The venues naming one place, in parallel arrays (where each is, how its address spells
 * the place), in no particular order: the arrays are handed to learnPlace as they are.
 *
 * A multiset of (lat, lon, spelling) entries, one per current venue naming the place, and no
 * ids: learnPlace reads only those values, so a venue that leaves is taken out as any one
 * entry equal to what it added (several venues may share one: the multiset left, and so the
 * place learnt, is the same whichever goes). Leaving entries are taken out at the next
 * {@link settle}, a scan that stops once every one is found (learning the place again reads
 * all its venues anyway). Adds and removals may come in any order before it. Not keeping ids
 * spares reading every venue's id when the live places are built, and holding them (at 1M
 * venues with addresses, a million strings).
 */
class PlaceMembers {
  readonly lat: number[] = [];
  readonly lon: number[] = [];
  private readonly spellings: string[] = [];
  /** The entries leaving at the next settle, by latitude (null: none). */
  private leaving: Map<number, LeavingEntry[]> | null = null;
  private leavingCount = 0;

  add(lat: number, lon: number, spelling: string): void {
    this.lat.push(lat);
    this.lon.push(lon);
    this.spellings.push(spelling);
  }

  /** Marks one entry equal to (lat, lon, spelling), added before, to leave at the next settle. */
  remove(lat: number, lon: number, spelling: string): void {
    const leaving = (this.leaving ??= new Map());
    let atLat = leaving.get(lat);
    if (atLat === undefined) leaving.set(lat, (atLat = []));
    atLat.push({ lat, lon, spelling });
    this.leavingCount++;
  }

  /** Takes the leaving entries out (each replaced by the last entry); returns how many are left. */
  settle(): number {
    const leaving = this.leaving;
    const { lat, lon, spellings } = this;
    if (leaving !== null) {
      let n = lat.length;
      let left = this.leavingCount;
      for (let i = 0; i < n && left > 0; ) {
        const atLat = leaving.get(lat[i]!);
        const k = atLat === undefined ? -1 : matchAt(atLat, lat[i]!, lon[i]!, spellings[i]!);
        if (k < 0) {
          i++;
          continue;
        }
        atLat![k] = atLat![atLat!.length - 1]!;
        atLat!.pop();
        left--;
        n--;
        lat[i] = lat[n]!;
        lon[i] = lon[n]!;
        spellings[i] = spellings[n]!;
      }
      lat.length = n;
      lon.length = n;
      spellings.length = n;
      this.leaving = null;
      this.leavingCount = 0;
    }
    return lat.length;
  }

  /** The venues as learnPlace reads them (the coordinates are this object's own arrays), once settled. */
  group(): Group {
    const spellings = new Map<string, number>();
    for (const spelling of this.spellings) spellings.set(spelling, (spellings.get(spelling) ?? 0) + 1);
    return { lat: this.lat, lon: this.lon, spellings };
  }
}

/** The index in `entries` of one equal to (lat, lon, spelling), or -1; coordinates compared as Object.is does (-0 is not 0). */
function matchAt(entries: readonly LeavingEntry[], lat: number, lon: number, spelling: string): number {
  for (let k = 0; k < entries.length; k++) {
    const e = entries[k]!;
    if (Object.is(e.lat, lat) && Object.is(e.lon, lon) && e.spelling === spelling) return k;
  }
  return -1;
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
      members.add(lat, lon, p.spelling);
      this.touched[p.kind].add(p.key);
    }
  }

  /** Takes a venue out: `r` as it was added (the same address and point). */
  remove(r: AddressedVenue): void {
    const [lat, lon] = r.location.coordinates;
    for (const p of placesNamedBy(r)) {
      const members = this.groups[p.kind].get(p.key);
      if (members === undefined) continue;
      members.remove(lat, lon, p.spelling);
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
