import { validateVenue } from './data/validate-venue.js';
import { VenueSearchError } from './errors.js';
import type { VenueRecord } from './schema/venue.js';
import { HitBuffer } from './spatial/hit-buffer.js';
import { SpatialIndex } from './spatial/spatial-index.js';
import { VenueStore } from './store/venue-store.js';

export interface EngineOptions {
  /**
   * Validate every record against the schema while building (default true). Records that
   * came from `readVenues` are already validated; pass false to skip the second pass.
   */
  readonly validate?: boolean;
}

/**
 * The engine: venues in a columnar store, a spatial index over them, and the queries.
 * Pure and synchronous; it holds no clock and does no I/O. Not safe for concurrent use
 * from several threads (it reuses scratch buffers between calls), which Node never does.
 */
export class Engine {
  readonly store: VenueStore;
  readonly spatial: SpatialIndex;
  /** Scratch for queries; results are copied out before a call returns. */
  protected readonly hits = new HitBuffer();

  constructor(venues: readonly VenueRecord[], options: EngineOptions = {}) {
    if (!Array.isArray(venues)) {
      throw new VenueSearchError('invalid_data', 'createEngine expects an array of venue records', { value: venues });
    }
    if (options.validate !== false) {
      for (let i = 0; i < venues.length; i++) validateVenue(venues[i], { line: i + 1 });
    }
    this.store = new VenueStore(venues);
    this.spatial = new SpatialIndex(this.store.lat, this.store.lon);
  }

  /** Number of venues. */
  get size(): number {
    return this.store.size;
  }

  /** Bytes per venue of the search-path columns and the spatial index. */
  get searchPathBytes(): number {
    return this.store.columnBytes + this.spatial.byteSize;
  }
}

export function createEngine(venues: readonly VenueRecord[], options: EngineOptions = {}): Engine {
  return new Engine(venues, options);
}
