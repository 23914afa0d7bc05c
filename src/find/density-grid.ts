import { BoxList } from '../geo/bbox.js';
import { distanceMeters } from '../geo/distance.js';
import type { VenueDensity } from '../places/place-resolver.js';

/** Grid cell size, degrees of latitude and longitude (~5.6 km x 3.4 km in London). */
const CELL_DEG = 0.05;
const COLS = Math.ceil(360 / CELL_DEG);

/**
 * Venue counts on a coarse lat/lon grid, to estimate how many venues a radius holds
 * without running the radius query: find uses it to choose between enumerating the name
 * postings and enumerating the venues around the centre. Only occupied cells are stored
 * (a Map keyed by cell number); the estimate over-counts (whole cells of the covering
 * boxes), which is fine for a choice between two plans. It is also the VenueDensity the
 * place resolver uses to pick, among places sharing a name, the one among the venues.
 */
export class DensityGrid implements VenueDensity {
  private readonly counts = new Map<number, number>();
  private readonly boxes = new BoxList(4);

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
      const d = distanceMeters(lat, lon, (row + 0.5) * CELL_DEG - 90, (col + 0.5) * CELL_DEG - 180);
      if (d < best) best = d;
    }
    return best;
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

function cellRow(lat: number): number {
  return Math.floor((Math.min(90, Math.max(-90, lat)) + 90) / CELL_DEG);
}
function cellCol(lon: number): number {
  return Math.min(COLS - 1, Math.floor((Math.min(180, Math.max(-180, lon)) + 180) / CELL_DEG));
}
function cellKey(lat: number, lon: number): number {
  return cellRow(lat) * COLS + cellCol(lon);
}
