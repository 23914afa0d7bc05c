import type { SearchHint } from '../schema/search.js';

/**
 * Where the data is, coarsely: the 1-degree cells (latitude x longitude) holding at least one
 * venue. A bounding rectangle would not do: data of London, New York and Auckland spans the
 * globe, so every point would be "inside" it. Built once per engine (64,800 bytes).
 */
export class OccupiedCells {
  private static readonly ROWS = 180;
  private static readonly COLS = 360;
  /** 1 per one-degree cell (row-major, 180 x 360) holding a venue. */
  readonly cells: Uint8Array;
  readonly empty: boolean;

  /** `cells`: the {@link cells} of another OccupiedCells over the same coordinates (computed here otherwise). */
  constructor(lat: Float64Array, lon: Float64Array, n: number, cells?: Uint8Array) {
    if (cells !== undefined && cells.length !== OccupiedCells.ROWS * OccupiedCells.COLS) throw new RangeError(`occupied cells: ${cells.length} cells given`);
    this.cells = cells ?? new Uint8Array(OccupiedCells.ROWS * OccupiedCells.COLS);
    if (cells === undefined) for (let i = 0; i < n; i++) this.cells[OccupiedCells.index(OccupiedCells.row(lat[i]!), OccupiedCells.col(lon[i]!))] = 1;
    this.empty = n === 0;
  }

  private static row(lat: number): number {
    return Math.min(OccupiedCells.ROWS - 1, Math.max(0, Math.floor(lat + 90)));
  }

  /** Longitude cell 0..359; -180 and 180 are the same meridian. */
  private static col(lon: number): number {
    return ((Math.floor(lon + 180) % OccupiedCells.COLS) + OccupiedCells.COLS) % OccupiedCells.COLS;
  }

  private static index(row: number, col: number): number {
    return row * OccupiedCells.COLS + col;
  }

  /**
   * True when the point's cell or one of its 8 neighbours holds a venue: the point is within
   * about one degree of the data. Longitude wraps at the antimeridian; latitude stops at the poles.
   */
  near(lat: number, lon: number): boolean {
    return OccupiedCells.nearIn(this.cells, lat, lon);
  }

  /** {@link near} over `cells` (1 per occupied cell, this class's layout). */
  static nearIn(cells: ArrayLike<number>, lat: number, lon: number): boolean {
    const r0 = OccupiedCells.row(lat);
    const c0 = OccupiedCells.col(lon);
    for (let dr = -1; dr <= 1; dr++) {
      const r = r0 + dr;
      if (r < 0 || r >= OccupiedCells.ROWS) continue;
      for (let dc = -1; dc <= 1; dc++) {
        const c = (c0 + dc + OccupiedCells.COLS) % OccupiedCells.COLS;
        if (cells[OccupiedCells.index(r, c)] === 1) return true;
      }
    }
    return false;
  }

  /** The index of the cell of (lat, lon) in {@link cells}. */
  static cellOf(lat: number, lon: number): number {
    return OccupiedCells.index(OccupiedCells.row(lat), OccupiedCells.col(lon));
  }

  static get cellCount(): number {
    return OccupiedCells.ROWS * OccupiedCells.COLS;
  }
}

/**
 * The occupied cells of a changing record set (live data): a count of venues per cell, kept
 * as venues come and go, so that the hint reads the current records' cells, as an engine
 * built from them would (audit 61d: the base's cells still counted removed venues and
 * ignored new ones).
 */
export class LiveOccupiedCells {
  private readonly counts = new Uint32Array(OccupiedCells.cellCount);
  /** 1 per cell whose count is above 0 (OccupiedCells' layout). */
  private readonly cells = new Uint8Array(OccupiedCells.cellCount);
  private total = 0;

  get empty(): boolean {
    return this.total === 0;
  }

  add(lat: number, lon: number): void {
    const cell = OccupiedCells.cellOf(lat, lon);
    if (this.counts[cell]!++ === 0) this.cells[cell] = 1;
    this.total++;
  }

  /** Takes out one venue added at (lat, lon) before. */
  remove(lat: number, lon: number): void {
    const cell = OccupiedCells.cellOf(lat, lon);
    if (--this.counts[cell]! === 0) this.cells[cell] = 0;
    this.total--;
  }

  near(lat: number, lon: number): boolean {
    return OccupiedCells.nearIn(this.cells, lat, lon);
  }
}

const round = (x: number): number => Math.round(x * 1e5) / 1e5;

/**
 * The hint of a search that found nothing: when its centre is away from the data (no venue in
 * its 1-degree cell or the 8 around it) but the centre with latitude and longitude exchanged is
 * near it, the request most likely wrote `[lon, lat]` (GeoJSON's order) where the interface
 * wants `lat` and `lon`. Otherwise undefined: no hint for a search that is merely empty.
 */
export function swappedCoordinatesHint(data: Pick<OccupiedCells, 'empty' | 'near'>, centerLat: number, centerLon: number): SearchHint | undefined {
  if (data.empty || Math.abs(centerLon) > 90 || data.near(centerLat, centerLon) || !data.near(centerLon, centerLat)) return undefined;
  return {
    code: 'lat_lon_swapped',
    message:
      `nothing was found around lat ${round(centerLat)}, lon ${round(centerLon)}, where there is no venue within about a degree; ` +
      `there are venues around lat ${round(centerLon)}, lon ${round(centerLat)}: were lat and lon swapped?`,
  };
}
