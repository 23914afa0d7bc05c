import { advancedDetails, basicDetails, menuList } from '../details/details.js';
import type { Engine } from '../engine.js';
import { describeValue, VenueSearchError } from '../errors.js';
import { checkFindParams, type FindParams } from '../find/find-params.js';
import { findCentre, findEstablishment, findResponse, type FoundVenues } from '../find/find.js';
import type { AdvancedDetails, BasicDetails, MenuList } from '../schema/details.js';
import type { FindEstablishment, FindResponse } from '../schema/find.js';
import type { SearchEstablishment, SearchResponse } from '../schema/search.js';
import type { VenueRecord } from '../schema/venue.js';
import { checkSearchRequest, searchResponse, travelFrames, type RankedMatches, type SearchOptions } from '../search/search-service.js';
import { SearchVocabulary } from '../search/search-vocabulary.js';
import { validateVenue } from '../data/validate-venue.js';
import { LearntPlaces } from '../places/learnt-places.js';
import { LivePlaces } from './live-places.js';
import { LiveWords } from './live-words.js';

/** What {@link Engine.upsert} did. */
export interface UpsertResult {
  /** Venues whose id was new. */
  readonly inserted: number;
  /** Venues that replaced one with the same id. */
  readonly replaced: number;
}

/** What {@link Engine.remove} did. */
export interface RemoveResult {
  /** Ids removed. */
  readonly removed: string[];
  /** Ids given that no current venue has (nothing done for them). */
  readonly unknown: string[];
}

/**
 * The changes applied to a built engine (its "base", never modified) since it was built:
 * - `hidden`: one byte per base venue (dense index), 1 when the venue was replaced or
 *   removed; the base's search and find skip those (MultiLocationSearch.hide, FindService.hide);
 * - `delta`: the current records of every inserted or replaced venue, by id, and a second,
 *   small engine built over them with the same builder (rebuilt per batch);
 * - `words`: the vocabulary words of the current record set, given to both sides' search;
 * - `places`: the places learnt from the current addresses, maintained venue by venue
 *   (built at the first use after a change).
 * Queries run on both sides and merge: the result order is total (search: total desc,
 * distance asc, id asc; find: cost asc, id asc), so the page at [offset, offset + limit) is
 * the merge of both sides' first offset + limit, and the counts add up. The results equal
 * those of an engine built from scratch on the current records (test/live/oracle.test.ts).
 *
 * Invariants: an id is in `delta` or in the base with hidden 0, never both; a batch either
 * validates completely and is applied, or throws and changes nothing.
 */
export class LiveChanges {
  readonly base: Engine;
  readonly hidden: Uint8Array;
  private hiddenCount = 0;
  private delta = new Map<string, VenueRecord>();
  private deltaEngine: Engine | null = null;
  private readonly words: LiveWords;
  private livePlaces: LivePlaces | null = null;
  private readonly makeEngine: (records: VenueRecord[]) => Engine;

  /** `makeEngine`: builds an engine over already validated records (the delta side). */
  constructor(base: Engine, makeEngine: (records: VenueRecord[]) => Engine) {
    this.base = base;
    this.makeEngine = makeEngine;
    this.hidden = new Uint8Array(base.store.size);
    this.words = new LiveWords(base.store.records);
    base.searcher().hide(this.hidden);
  }

  /** Changes not folded into the base: venues hidden in it plus venues in the delta. */
  get pending(): number {
    return this.hiddenCount + this.delta.size;
  }

  /** Number of current venues. */
  get size(): number {
    return this.base.store.size - this.hiddenCount + this.delta.size;
  }

  /** Every current record (base ones not hidden, in dense order, then the delta's). */
  *records(): Generator<VenueRecord> {
    const store = this.base.store;
    for (let i = 0; i < store.size; i++) if (this.hidden[i] === 0) yield store.record(i);
    yield* this.delta.values();
  }

  /** Whether a current venue has this id. */
  has(id: string): boolean {
    return this.current(id) !== null;
  }

  upsert(records: readonly unknown[]): UpsertResult {
    const valid = checkUpsertBatch(records);
    const delta = new Map(this.delta);
    const hide: number[] = [];
    const gone: VenueRecord[] = [];
    let replaced = 0;
    for (const r of valid) {
      const old = this.current(r.id);
      if (old !== null) {
        replaced++;
        gone.push(old.record);
        if (old.baseIndex >= 0) hide.push(old.baseIndex);
      }
      delta.set(r.id, r);
    }
    // Everything that can fail is done before this line; the rest only commits.
    this.commit(delta, hide, gone, valid);
    return { inserted: valid.length - replaced, replaced };
  }

  remove(ids: readonly unknown[]): RemoveResult {
    if (!Array.isArray(ids)) throw new VenueSearchError('invalid_request', 'remove expects an array of venue ids', { param: 'ids', value: ids });
    ids.forEach((id, k) => {
      if (typeof id !== 'string') {
        throw new VenueSearchError('invalid_request', `ids[${k}] must be a venue id (a string); got ${describeValue(id)}`, { param: `ids[${k}]`, value: id });
      }
    });
    const delta = new Map(this.delta);
    const hide: number[] = [];
    const gone: VenueRecord[] = [];
    const removed: string[] = [];
    const unknown: string[] = [];
    const done = new Set<string>();
    for (const id of ids as readonly string[]) {
      const old = done.has(id) ? null : this.current(id);
      if (old === null) {
        unknown.push(id);
        continue;
      }
      done.add(id);
      removed.push(id);
      gone.push(old.record);
      if (old.baseIndex >= 0) hide.push(old.baseIndex);
      else delta.delete(id);
    }
    if (removed.length > 0) this.commit(delta, hide, gone, []);
    return { removed, unknown };
  }

  private current(id: string): { record: VenueRecord; baseIndex: number } | null {
    const d = this.delta.get(id);
    if (d !== undefined) return { record: d, baseIndex: -1 };
    const i = this.base.store.indexOf(id);
    if (i < 0 || this.hidden[i] !== 0) return null;
    return { record: this.base.store.record(i), baseIndex: i };
  }

  private commit(delta: Map<string, VenueRecord>, hide: readonly number[], gone: readonly VenueRecord[], added: readonly VenueRecord[]): void {
    const deltaEngine = delta.size > 0 ? this.makeEngine([...delta.values()]) : null;
    this.delta = delta;
    this.deltaEngine = deltaEngine;
    for (const i of hide) {
      if (this.hidden[i] === 0) this.hiddenCount++;
      this.hidden[i] = 1;
    }
    for (const r of gone) {
      this.words.remove(r);
      this.livePlaces?.remove(r);
    }
    for (const r of added) {
      this.words.add(r);
      this.livePlaces?.add(r);
    }
    this.livePlaces?.flush();
    const words = this.words.words();
    this.base.searcher().useVocabulary(new SearchVocabulary(this.base.store, words));
    if (deltaEngine !== null) deltaEngine.searcher().useVocabulary(new SearchVocabulary(deltaEngine.store, words));
  }

  /**
   * The places learnt from the current records, written into `target` (the engine's
   * LearntPlaces, which its place resolver reads) and kept up to date from then on.
   */
  places(target: LearntPlaces | null): LearntPlaces {
    this.livePlaces ??= new LivePlaces(target ?? new LearntPlaces([]), this.records());
    return this.livePlaces.places;
  }

  /** The live places if built already, else null. */
  builtPlaces(): LearntPlaces | null {
    return this.livePlaces?.places ?? null;
  }

  search(body: unknown, options: SearchOptions): SearchResponse {
    const request = checkSearchRequest(body, options);
    const k = request.offset + request.limit;
    const baseSide = this.base.searcher();
    const a = baseSide.rank(request, k);
    const deltaSide = this.deltaEngine?.searcher() ?? null;
    const b = deltaSide?.rank(request, k) ?? null;
    const picks = mergeTop(a.slots.length, b?.slots.length ?? 0, k, (x, y) => rankedBefore(a, a.slots[x]!, b!, b!.slots[y]!));
    const page = picks.slice(Math.min(request.offset, picks.length));
    const from = travelFrames(request, page.length);
    const establishments: SearchEstablishment[] = page.map((p) =>
      p >= 0 ? baseSide.establishment(a.slots[p]!, a.prefs, request, from) : deltaSide!.establishment(b!.slots[~p]!, b!.prefs, request, from),
    );
    return searchResponse(request, establishments, a.count + (b?.count ?? 0));
  }

  find(params: FindParams, nowMs: number): FindResponse {
    const p = checkFindParams(params);
    const baseSide = this.base.finder();
    const place = p.location !== null ? baseSide.resolvePlace(p.location) : null;
    const centre = findCentre(p, place);
    const k = p.offset + p.limit;
    const deltaSide = this.deltaEngine?.finder() ?? null;
    baseSide.hide(this.hidden);
    const prefixKnown = (word: string) => baseSide.hasNamePrefix(word) || (deltaSide?.hasNamePrefix(word) ?? false);
    const a = baseSide.collect(p.query, centre, p.maxDistanceMeters, k, prefixKnown);
    const b: FoundVenues = deltaSide?.collect(p.query, centre, p.maxDistanceMeters, k, prefixKnown) ?? { venues: [], costs: [], total: 0 };
    const deltaStore = this.deltaEngine?.store;
    const idA = (x: number) => this.base.store.id(a.venues[x]!);
    const idB = (y: number) => deltaStore!.id(b.venues[y]!);
    const picks = mergeTop(a.venues.length, b.venues.length, k, (x, y) => {
      const ca = a.costs[x]!;
      const cb = b.costs[y]!;
      return ca !== cb ? ca < cb : idA(x) < idB(y);
    });
    const establishments: FindEstablishment[] = [];
    for (let j = p.offset; j < picks.length; j++) {
      const q = picks[j]!;
      const r = q >= 0 ? this.base.store.record(a.venues[q]!) : deltaStore!.record(b.venues[~q]!);
      establishments.push(findEstablishment(r, centre, q >= 0 ? a.costs[q]! : b.costs[~q]!, nowMs));
    }
    return findResponse(p, centre, place, establishments, a.total + b.total);
  }

  /** The current record of `id`; throws `venue_not_found` naming it. */
  recordOf(id: string): VenueRecord {
    const known = typeof id === 'string' ? this.current(id) : null;
    if (known === null) throw new VenueSearchError('venue_not_found', `no venue with id ${describeValue(id)}`, { param: 'id', value: id });
    return known.record;
  }

  basic(id: string, nowMs: number): BasicDetails {
    return basicDetails(this.recordOf(id), nowMs);
  }

  advanced(id: string, nowMs: number): AdvancedDetails {
    return advancedDetails(this.recordOf(id), nowMs);
  }

  menus(id: string): MenuList {
    return menuList(this.recordOf(id));
  }

  /** The search vocabulary of the current records. */
  vocabulary(): ReturnType<SearchVocabulary['toJSON']> {
    return new SearchVocabulary(this.base.store, this.words.words()).toJSON();
  }
}

/**
 * Validates a batch for upsert exactly as createEngine validates records, plus one id once
 * per batch; throws VenueSearchError (`invalid_venue` or `duplicate_id`) naming the record
 * (`line`: its 1-based position, `recordId`) and the field.
 */
export function checkUpsertBatch(records: readonly unknown[]): readonly VenueRecord[] {
  if (!Array.isArray(records)) {
    throw new VenueSearchError('invalid_data', 'upsert expects an array of venue records', { value: records });
  }
  const seen = new Set<string>();
  for (let k = 0; k < records.length; k++) {
    const r = validateVenue(records[k], { line: k + 1 });
    if (seen.has(r.id)) {
      throw new VenueSearchError('duplicate_id', `record ${k + 1}: duplicate venue id ${JSON.stringify(r.id)} in one batch`, {
        param: 'id',
        value: r.id,
        recordId: r.id,
        line: k + 1,
      });
    }
    seen.add(r.id);
  }
  return records as readonly VenueRecord[];
}

/** Whether slot sa of side a ranks before slot sb of side b (total desc, distance asc, id asc). */
function rankedBefore(a: RankedMatches, sa: number, b: RankedMatches, sb: number): boolean {
  const ta = a.ranking.total[sa]!;
  const tb = b.ranking.total[sb]!;
  if (ta !== tb) return ta > tb;
  const da = a.ranking.dist[sa]!;
  const db = b.ranking.dist[sb]!;
  if (da !== db) return da < db;
  return a.idOf(sa) < b.idOf(sb);
}

/**
 * The first `k` of two ordered lists of lengths na and nb, merged: entries x >= 0 are
 * positions in list a, entries ~y (< 0) positions in list b. `aFirst(x, y)`: a[x] ranks
 * before b[y] (the order being total, never equal).
 */
function mergeTop(na: number, nb: number, k: number, aFirst: (x: number, y: number) => boolean): number[] {
  const out: number[] = [];
  let x = 0;
  let y = 0;
  while (out.length < k && (x < na || y < nb)) {
    if (y >= nb || (x < na && aFirst(x, y))) out.push(x++);
    else out.push(~y++);
  }
  return out;
}
