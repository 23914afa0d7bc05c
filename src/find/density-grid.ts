import { BoxList } from '../geo/bbox.js';
import { distanceMeters } from '../geo/distance.js';
import type { VenueDensity } from '../places/place-resolver.js';

/** Grid cell size, degrees of latitude and longitude (~5.6 km x 3.4 km in London). */
const CELL_DEG = 0.05;
const COLS = Math.ceil(360 / CELL_DEG);
/** The percentile of occupied cells' nearest-neighbour distances that is the data's reach (see reachMeters). */
const REACH_PERCENTILE = 0.95;
/** Rings of cells searched around an occupied cell for its nearest occupied neighbour (about 330 km); beyond, it has none. */
const REACH_MAX_RINGS = 60;

/**
 * Venue counts on a coarse lat/lon grid, to estimate how many venues a radius holds
 * without running the radius query: find uses it to choose between enumerating the name
 * postings and enumerating the venues around the centre. Only occupied cells are stored
 * (a Map keyed by cell number); the estimate over-counts (whole cells of the covering
 * boxes), which is fine for a choice between two plans. With exact counts from the spatial
 * index (PlaceVenues, place-venues.ts) it is also the VenueDensity the place resolver uses
 * to pick, among places sharing a name, the one among the venues.
 */
export class DensityGrid implements VenueDensity {
  private readonly counts = new Map<number, number>();
  private readonly boxes = new BoxList(4);
  /** reachMeters' answer, computed at the first call (null until then, and after the occupied cells change). */
  private reach: number | null = null;
  /** Venues added and removed by {@link add} and {@link remove} so far (see {@link version}). */
  private changes = 0;

  constructor(lat: Float64Array, lon: Float64Array) {
    for (let i = 0; i < lat.length; i++) {
      const key = cellKey(lat[i]!, lon[i]!);
      this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    }
  }

  /** A grid of no venue, to fill with {@link addCells} (a snapshot's grid, restored in steps). */
  static empty(): DensityGrid {
    return new DensityGrid(new Float64Array(0), new Float64Array(0));
  }

  /** Adds the saved cells `from` to `to` (exclusive) of arrays as {@link cells} gives them: occupied cell numbers and their venue counts, of equal length. */
  addCells(cells: Float64Array, counts: Uint32Array, from: number, to: number): void {
    for (let k = from; k < to; k++) this.counts.set(cells[k]!, counts[k]!);
    this.reach = null;
  }

  /**
   * Changes with every {@link add} and {@link remove} (a live engine's grid follows its
   * records): whoever keeps answers computed from the grid compares it (VenueDensity.version).
   */
  get version(): number {
    return this.changes;
  }

  /** Counts one more venue at (lat, lon), degrees. */
  add(lat: number, lon: number): void {
    const key = cellKey(lat, lon);
    const n = this.counts.get(key) ?? 0;
    this.counts.set(key, n + 1);
    if (n === 0) this.reach = null; // a cell newly occupied: the reach reads the occupied cells only
    this.changes++;
  }

  /** Takes out one venue counted at (lat, lon) before. */
  remove(lat: number, lon: number): void {
    const key = cellKey(lat, lon);
    const n = this.counts.get(key) ?? 0;
    if (n === 0) throw new RangeError(`density grid: no venue counted at ${lat}, ${lon} to remove`);
    if (n === 1) {
      this.counts.delete(key);
      this.reach = null;
    } else this.counts.set(key, n - 1);
    this.changes++;
  }

  /** The occupied cells and their venue counts, in the Map's order (for a snapshot). */
  cells(): { readonly cells: Float64Array; readonly counts: Uint32Array } {
    const cells = new Float64Array(this.counts.size);
    const counts = new Uint32Array(this.counts.size);
    let k = 0;
    for (const [key, n] of this.counts) {
      cells[k] = key;
      counts[k++] = n;
    }
    return { cells, counts };
  }

  /** Upper-bound-ish estimate of the venues within `radius` metres of (lat, lon). */
  estimateWithin(lat: number, lon: number, radius: number): number {
    return this.countInBoxes(lat, lon, radius, true);
  }

  /** Venues in the grid cells that the box of `radiusMeters` around (lat, lon) touches. */
  venuesNear(lat: number, lon: number, radiusMeters: number): number {
    return this.countInBoxes(lat, lon, radiusMeters, false);
  }

  /**
   * Metres from (lat, lon) to the centre of the nearest occupied cell (so within about
   * 3.3 km of the nearest venue); Infinity for an empty grid. Scans the occupied cells:
   * for rare calls (an ambiguous place name far from every venue), not per candidate.
   */
  nearestVenueMeters(lat: number, lon: number): number {
    let best = Infinity;
    for (const key of this.counts.keys()) {
      const row = Math.floor(key / COLS);
      const col = key - row * COLS;
      const d = distanceMeters(lat, lon, cellCentreLat(row), cellCentreLon(col));
      if (d < best) best = d;
    }
    return best;
  }

  /**
   * How far from the venues a point still lies within the data's region (metres): the 95th
   * percentile of the distances from each occupied cell to its nearest occupied neighbour
   * (centre to centre; a cell with none within REACH_MAX_RINGS is left out, and with no
   * neighbours at all, as for venues in one town, the reach is 0). Contiguous data (a city's
   * pubs) gives about one cell, 3 to 6 km; the OSM vegetarian venues of Great Britain about 24 km.
   * Computed once, at the first call: a few lookups per occupied cell.
   */
  reachMeters(): number {
    if (this.reach !== null) return this.reach;
    const nearest: number[] = [];
    for (const key of this.counts.keys()) {
      const row = Math.floor(key / COLS);
      const col = key - row * COLS;
      let best = Infinity;
      // rings outward until no cell of the next ring can be nearer than the best found (a
      // cell is narrower east-west than north-south, so a farther ring may hold a nearer cell)
      for (let ring = 1; ring <= REACH_MAX_RINGS && ringNearestMeters(row, ring) < best; ring++) {
        for (let r = row - ring; r <= row + ring; r++) {
          for (let c = col - ring; c <= col + ring; c++) {
            if (Math.max(Math.abs(r - row), Math.abs(c - col)) !== ring || !this.counts.has(r * COLS + c)) continue;
            best = Math.min(best, distanceMeters(cellCentreLat(row), cellCentreLon(col), cellCentreLat(r), cellCentreLon(c)));
          }
        }
      }
      if (best !== Infinity) nearest.push(best);
    }
    nearest.sort((a, b) => a - b);
    this.reach = nearest.length === 0 ? 0 : nearest[Math.min(nearest.length - 1, Math.floor(REACH_PERCENTILE * nearest.length))]!;
    return this.reach;
  }

  /**
   * Sum of the counts of the cells the padded boxes touch. A box wider than the data has
   * cells: `allIfWide` answers Infinity (assume all, for the plan choice); otherwise the
   * occupied cells are scanned and those inside the box counted.
   */
  private countInBoxes(lat: number, lon: number, radius: number, allIfWide: boolean): number {
    const boxes = this.boxes.clear();
    boxes.addPadded(lat, lon, lat, lon, radius);
    let total = 0;
    for (let b = 0; b < boxes.count; b++) {
      const c0 = cellCol(boxes.coords[4 * b]!);
      const r0 = cellRow(boxes.coords[4 * b + 1]!);
      const c1 = cellCol(boxes.coords[4 * b + 2]!);
      const r1 = cellRow(boxes.coords[4 * b + 3]!);
      if ((r1 - r0 + 1) * (c1 - c0 + 1) > this.counts.size) {
        if (allIfWide) return Infinity;
        for (const [key, n] of this.counts) {
          const r = Math.floor(key / COLS);
          const c = key - r * COLS;
          if (r >= r0 && r <= r1 && c >= c0 && c <= c1) total += n;
        }
        continue;
      }
      for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) total += this.counts.get(r * COLS + c) ?? 0;
    }
    return total;
  }
}

/**
 * A lower bound (metres) on the distance between the centre of a cell in `row` and the centre
 * of any cell `ring` rings around it: `ring` cells east-west at the ring's most poleward
 * latitude (the narrowest), 1 % under a sphere's figure (the ellipsoid's metre per degree
 * of longitude is larger than a sphere's of radius 6,300 km everywhere).
 */
function ringNearestMeters(row: number, ring: number): number {
  const poleward = Math.min(90, Math.max(Math.abs(cellCentreLat(row - ring)), Math.abs(cellCentreLat(row + ring))));
  return ring * CELL_DEG * (Math.PI / 180) * 6_300_000 * Math.cos((poleward * Math.PI) / 180);
}
function cellCentreLat(row: number): number {
  return (row + 0.5) * CELL_DEG - 90;
}
function cellCentreLon(col: number): number {
  return (col + 0.5) * CELL_DEG - 180;
}
function cellRow(lat: number): number {
  return Math.floor((Math.min(90, Math.max(-90, lat)) + 90) / CELL_DEG);
}
function cellCol(lon: number): number {
  return Math.min(COLS - 1, Math.floor((Math.min(180, Math.max(-180, lon)) + 180) / CELL_DEG));
}
function cellKey(lat: number, lon: number): number {
  return cellRow(lat) * COLS + cellCol(lon);
}
