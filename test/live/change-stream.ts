// A random stream of venue changes over a starting record set, with the expected record set
// kept by the most naive means (a Map by id), for the live-data oracle tests.
import { seededRandom } from '../../scripts/fixtures/random.js';
import type { VenueRecord } from '../../src/schema/venue.js';

export type Change = { kind: 'upsert'; records: VenueRecord[] } | { kind: 'remove'; ids: string[] };

/** The seeded generator of the fixtures (tests must replay). */
export const seeded = seededRandom;

const CATERS = ['vegan', 'vegetarian', 'glutenFree', 'halal', 'kosher'];
const NEW_GENRES = ['tapas', 'ramen', 'gastropub', 'taproom', 'creperie'];
const NEW_VIBES = ['buzzing', 'hidden_gem', 'cosy', 'romantic', 'industrial'];
const NEW_FLAGS = ['servesBrunch', 'liveMusic', 'freeWifi', 'dogFriendly'];
const AREAS = ['Shoreditch', 'Camden Town', 'Hackney Wick', 'Brixton', 'Headingley', 'Chapel Allerton'];
const POSTCODES = ['E1 6AN', 'NW1 7AB', 'SW9 8LF', 'LS6 3HN', 'LS7 4NE', 'E9 5EN'];

/**
 * The changes: upserts of new venues (clones of existing ones, moved and renamed, with new
 * words now and then), replacements of existing venues, removals (some of unknown ids), in
 * batches of 1..maxBatch; some upsert batches carry one bad record (the whole batch must
 * be refused). `expected` is updated for every batch that must succeed.
 */
export class ChangeStream {
  readonly expected = new Map<string, VenueRecord>();
  private readonly rnd: () => number;
  private next = 0;
  private readonly nameWords: string[];
  /** Every id ever seen (removed ones too), to reuse and to look up. */
  readonly everId: string[] = [];

  constructor(start: readonly VenueRecord[], seed: number) {
    this.rnd = seeded(seed);
    for (const r of start) {
      this.expected.set(r.id, r);
      this.everId.push(r.id);
    }
    this.nameWords = [...new Set(start.flatMap((r) => r.name.split(/\s+/)).filter((w) => /^[A-Za-z']{3,}$/.test(w)))];
  }

  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.rnd() * xs.length)]!;
  }

  /** One batch of `size` changes of one kind; `bad`: the index of a bad record, or -1. */
  batch(size: number, badChance: number): { change: Change; bad: number } {
    const rnd = this.rnd;
    const current = [...this.expected.keys()];
    if (rnd() < 0.3 && current.length > 0) {
      const ids: string[] = [];
      for (let k = 0; k < size; k++) ids.push(rnd() < 0.05 ? `unknown-${Math.floor(rnd() * 1e6)}` : rnd() < 0.05 ? this.pick(this.everId) : this.pick(current));
      return { change: { kind: 'remove', ids }, bad: -1 };
    }
    const records: VenueRecord[] = [];
    const used = new Set<string>();
    for (let k = 0; k < size; k++) {
      let id: string;
      const roll = rnd();
      if (roll < 0.45 && current.length > 0) id = this.pick(current);
      else if (roll < 0.5) id = this.pick(this.everId);
      else id = `live-${this.next++}`;
      if (used.has(id)) id = `live-${this.next++}`;
      used.add(id);
      records.push(this.venue(id));
    }
    const bad = rnd() < badChance ? Math.floor(rnd() * records.length) : -1;
    if (bad >= 0) records[bad] = this.broken(records[bad]!);
    return { change: { kind: 'upsert', records }, bad };
  }

  /** Names of venues removed or replaced (their words may have left the data). */
  readonly goneNames: string[] = [];

  /** Applies a batch that succeeded to `expected`. */
  apply(change: Change): void {
    const gone = (id: string) => {
      const old = this.expected.get(id);
      if (old !== undefined && this.goneNames.length < 2000) this.goneNames.push(old.name);
    };
    if (change.kind === 'remove') {
      for (const id of change.ids) {
        gone(id);
        this.expected.delete(id);
      }
    } else {
      for (const r of change.records) {
        gone(r.id);
        if (!this.expected.has(r.id) && !this.everId.includes(r.id)) this.everId.push(r.id);
        this.expected.set(r.id, r);
      }
    }
  }

  private venue(id: string): VenueRecord {
    const rnd = this.rnd;
    const model = this.pick([...this.expected.values()].slice(0, 5000)) ?? this.pick([...this.expected.values()]);
    const r = structuredClone(model) as VenueRecord & Record<string, unknown>;
    r.id = id;
    const [lat, lon] = r.location.coordinates;
    r.location = { type: 'Point', coordinates: [lat + (rnd() - 0.5) * 0.02, lon + (rnd() - 0.5) * 0.03] };
    const words = 1 + Math.floor(rnd() * 3);
    const name: string[] = [];
    for (let w = 0; w < words; w++) {
      const roll = rnd();
      const word = this.pick(this.nameWords);
      // New words now and then: made up, or one letter off a known word (so that a word
      // starts a name in one part of the data and is a typo of one in another).
      if (roll < 0.1) name.push(`Zq${Math.floor(rnd() * 50)}x`);
      else if (roll < 0.25) name.push(word.slice(0, -1) + 'abcdefghijklmnopqrstuvwxyz'[Math.floor(rnd() * 26)]);
      else name.push(word);
    }
    r.name = name.join(' ');
    if (rnd() < 0.2) r.primaryGenre = this.pick(NEW_GENRES);
    if (rnd() < 0.2) r.additionalGenres = [this.pick(NEW_GENRES)];
    if (rnd() < 0.3) r.vibes = [this.pick(NEW_VIBES)];
    if (rnd() < 0.3) r.establishmentFlags = [...(r.establishmentFlags ?? []), this.pick(NEW_FLAGS)];
    if (rnd() < 0.5) r.catersFlags = CATERS.filter(() => rnd() < 0.3);
    if (rnd() < 0.3) r.isChain = rnd() < 0.5;
    if (rnd() < 0.4) r.formattedAddress = `${1 + Math.floor(rnd() * 200)} High Street, ${this.pick(AREAS)}, London ${this.pick(POSTCODES)}`;
    return r;
  }

  private broken(r: VenueRecord): VenueRecord {
    const b = structuredClone(r) as unknown as Record<string, unknown>;
    const roll = this.rnd();
    if (roll < 0.25) b.location = { type: 'Point', coordinates: [123, 0] };
    else if (roll < 0.5) b.catersFlags = ['notADiet'];
    else if (roll < 0.75) delete b.name;
    else b.isChain = 'sometimes';
    return b as unknown as VenueRecord;
  }
}
