import type { VenueDensity } from '../places/place-resolver.js';
import type { SpatialIndex } from '../spatial/spatial-index.js';
import type { Tombstones } from '../spatial/tombstones.js';
import type { DensityGrid } from './density-grid.js';

/** A part of the venues counted: a spatial index and the venues hidden in it (live data; null: none). */
export interface CountedVenues {
  readonly spatial: SpatialIndex;
  readonly tombstones: Tombstones | null;
}

/**
 * Where an engine's venues are, as the place resolver reads it (VenueDensity): the density
 * grid's estimates (venuesNear, nearestVenueMeters, reachMeters) and its version, and exact
 * counts within a radius from the spatial indexes (venuesWithin). The grid's whole cells
 * reach up to about 20 km beyond a 10 km circle, which ranked Carrington, Midlothian (77
 * venues in its cells, 2 within 10 km: the cells reach Edinburgh) over Carrington, Trafford
 * (56 and 22) on Britain's vegetarian venues (audit 70i: 142 of 1,929 ambiguous names took
 * a place with fewer venues near it, 73 of them a place with none).
 *
 * `parts`: the current parts of the venues (one engine's index; a live engine's base and
 * runs with their tombstones), read at each count. The grid must count the same venues: it
 * is an upper bound of every exact count (no venue within the radius lies outside its
 * cells), so a count whose cells are empty is 0 without a walk.
 */
export class PlaceVenues implements VenueDensity {
  constructor(
    private readonly grid: DensityGrid,
    private readonly parts: () => readonly CountedVenues[],
  ) {}

  get version(): number {
    return this.grid.version;
  }

  venuesNear(lat: number, lon: number, radiusMeters: number): number {
    return this.grid.venuesNear(lat, lon, radiusMeters);
  }

  venuesWithin(lat: number, lon: number, radiusMeters: number): number {
    if (this.grid.venuesNear(lat, lon, radiusMeters) === 0) return 0;
    let n = 0;
    for (const { spatial, tombstones } of this.parts()) n += spatial.countWithinRadius(lat, lon, radiusMeters, tombstones);
    return n;
  }

  nearestVenueMeters(lat: number, lon: number): number {
    return this.grid.nearestVenueMeters(lat, lon);
  }

  reachMeters(): number {
    return this.grid.reachMeters();
  }
}
