import type { VenueRecord } from '../schema/venue.js';
import { osmNodeWayTwins, twinPoint, type TwinPoint } from './osm-node-way-twins.js';

/**
 * The end-of-run twin count of a streamed `import osm` (osm-node-way-twins.ts), held in flat
 * typed arrays: per record with a `TwinPoint`, its point (two Float64), the id of its name key
 * and of its genre (Int32, from Maps of the distinct values) and whether it is a node (Uint8),
 * 25 bytes, instead of one TwinPoint object per record (audit 68e F7).
 *
 * `count()` is exactly `osmNodeWayTwins` of every record's `TwinPoint` in order: it builds
 * `TwinPoint`s only for records whose name key and genre some node and some way/relation
 * share (no other record can be a twin), in the same order, so the nearest-first pairing and
 * its ties (by index) are the same.
 */
export class OsmTwinTally {
  private size = 0;
  private lat = new Float64Array(1024);
  private lon = new Float64Array(1024);
  private nameIds = new Int32Array(1024);
  private genreIds = new Int32Array(1024);
  private isNode = new Uint8Array(1024);
  private readonly names = new Map<string, number>();
  private readonly genres = new Map<string | undefined, number>();

  /** Holds what the twin rule reads of `record` (nothing for a record that is no candidate). */
  add(record: VenueRecord): void {
    const p = twinPoint(record);
    if (p === undefined) return;
    if (this.size === this.lat.length) this.grow();
    const i = this.size++;
    [this.lat[i], this.lon[i]] = p.location.coordinates;
    this.nameIds[i] = idOf(this.names, p.nameKey);
    this.genreIds[i] = idOf(this.genres, p.genre);
    this.isNode[i] = p.isNode ? 1 : 0;
  }

  /** The number of node/way twin pairs among the records added. */
  count(): number {
    const names = [...this.names.keys()];
    const genres = [...this.genres.keys()];
    // per (name, genre): bit 1 when a node has it, bit 2 when a way or relation has it
    const kinds = new Map<number, number>();
    const key = (i: number): number => (this.nameIds[i] as number) * genres.length + (this.genreIds[i] as number);
    for (let i = 0; i < this.size; i++) kinds.set(key(i), (kinds.get(key(i)) ?? 0) | (this.isNode[i] === 1 ? 1 : 2));
    const points: TwinPoint[] = [];
    for (let i = 0; i < this.size; i++) {
      if (kinds.get(key(i)) !== 3) continue;
      const location = { coordinates: [this.lat[i] as number, this.lon[i] as number] as const };
      points.push({ isNode: this.isNode[i] === 1, nameKey: names[this.nameIds[i] as number] as string, genre: genres[this.genreIds[i] as number], location });
    }
    return osmNodeWayTwins(points).size;
  }

  private grow(): void {
    const n = this.lat.length * 2;
    this.lat = grown(new Float64Array(n), this.lat);
    this.lon = grown(new Float64Array(n), this.lon);
    this.nameIds = grown(new Int32Array(n), this.nameIds);
    this.genreIds = grown(new Int32Array(n), this.genreIds);
    this.isNode = grown(new Uint8Array(n), this.isNode);
  }
}

function grown<T extends Float64Array | Int32Array | Uint8Array>(to: T, from: T): T {
  to.set(from);
  return to;
}

/** The id of `value` in `ids`, given the next id when new. */
function idOf<K>(ids: Map<K, number>, value: K): number {
  let id = ids.get(value);
  if (id === undefined) ids.set(value, (id = ids.size));
  return id;
}
