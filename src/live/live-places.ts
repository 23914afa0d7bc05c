import { learnPlace, placesNamedBy, type Group, type LearntPlaces } from '../places/learnt-places.js';
import type { VenueRecord } from '../schema/venue.js';

/** What places are learnt from: a venue's id, address and point (a record has them). */
export type AddressedVenue = Pick<VenueRecord, 'id' | 'formattedAddress' | 'location'>;

/** One venue's share of a place: where it is and how its address spells the place. */
interface Member {
  readonly lat: number;
  readonly lon: number;
  readonly spelling: string;
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
  /** `kind:key` -> the venues naming that place, by id. */
  private readonly groups = new Map<string, Map<string, Member>>();
  private readonly touched = new Set<string>();

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
    for (const p of placesNamedBy(r)) {
      const k = `${p.kind}:${p.key}`;
      let g = this.groups.get(k);
      if (g === undefined) {
        g = new Map();
        this.groups.set(k, g);
      }
      g.set(r.id, { lat: r.location.coordinates[0], lon: r.location.coordinates[1], spelling: p.spelling });
      this.touched.add(k);
    }
  }

  remove(r: AddressedVenue): void {
    for (const p of placesNamedBy(r)) {
      const k = `${p.kind}:${p.key}`;
      const g = this.groups.get(k);
      if (g === undefined) continue;
      g.delete(r.id);
      if (g.size === 0) this.groups.delete(k);
      this.touched.add(k);
    }
  }

  /** Re-learns the places touched since the last flush. */
  flush(): void {
    for (const k of this.touched) {
      const colon = k.indexOf(':');
      const kind = k.slice(0, colon) as 'area' | 'postcode';
      const key = k.slice(colon + 1);
      const members = this.groups.get(k);
      let place;
      if (members !== undefined) {
        const g: Group = { lat: [], lon: [], spellings: new Map() };
        for (const m of members.values()) {
          g.lat.push(m.lat);
          g.lon.push(m.lon);
          g.spellings.set(m.spelling, (g.spellings.get(m.spelling) ?? 0) + 1);
        }
        place = learnPlace(kind, key, g);
      }
      this.target.update(kind, key, place);
    }
    this.touched.clear();
  }
}

/** Takes every place out of `places`. */
function clear(places: LearntPlaces): void {
  const saved = places.toJSON();
  for (const [key] of saved.areas) places.update('area', key, undefined);
  for (const [code] of saved.postcodes) places.update('postcode', code, undefined);
}
