import { BoxList } from '../geo/bbox.js';

/** Cell size of the posting cells, degrees of latitude and longitude (~1.1 km x 0.7 km in London). */
const CELL_DEG = 0.01;
/** Cell rows and columns each fit 16 bits: 18,000 rows, 36,000 columns. */
const MAX_ROW = Math.round(180 / CELL_DEG);
const MAX_COL = Math.round(360 / CELL_DEG) - 1;

function cellRow(lat: number): number {
  return Math.min(MAX_ROW, Math.max(0, Math.floor((lat + 90) / CELL_DEG)));
}
function cellCol(lon: number): number {
  return Math.min(MAX_COL, Math.max(0, Math.floor((lon + 180) / CELL_DEG)));
}

/**
 * The grid cell of each name posting's venue (parallel to NameIndex.postVenue): row << 16 |
 * column on a 0.01 degree grid. A find with a centre tests a posting's cell (a sequential
 * read) against the cells of the box covering its circle before it reads the venue's
 * coordinates or words (random reads): most postings of a common word lie far from the
 * centre and are dropped at about a nanosecond each (issue 16: the heavy find queries).
 */
export function postingCells(postVenue: Uint32Array, lat: Float64Array, lon: Float64Array): Uint32Array {
  const venueCell = new Uint32Array(lat.length);
  for (let i = 0; i < lat.length; i++) venueCell[i] = ((cellRow(lat[i]!) << 16) | cellCol(lon[i]!)) >>> 0;
  const cells = new Uint32Array(postVenue.length);
  for (let p = 0; p < postVenue.length; p++) cells[p] = venueCell[postVenue[p]!]!;
  return cells;
}

/**
 * The cells a posting must lie in to be within reach of a centre: one box of cell rows and
 * columns covering the circle (BoxList's conservative padding), or every cell. A venue
 * inside the circle is inside the box, and its cell inside the box's cells (the cell of a
 * coordinate is monotonic in it), so the test never drops a venue the exact distance keeps.
 * Reused per find service: setting it allocates nothing.
 */
export class CellWindow {
  rowLo = 0;
  rowHi = MAX_ROW;
  colLo = 0;
  colHi = MAX_COL;
  private readonly boxes = new BoxList(2);

  /** Every cell (no centre). */
  all(): this {
    this.rowLo = 0;
    this.rowHi = MAX_ROW;
    this.colLo = 0;
    this.colHi = MAX_COL;
    return this;
  }

  /** The cells of the box covering `radiusMeters` around (lat, lon); every cell when that box crosses the antimeridian. */
  around(lat: number, lon: number, radiusMeters: number): this {
    const boxes = this.boxes.clear();
    boxes.addPadded(lat, lon, lat, lon, radiusMeters);
    if (boxes.count !== 1) return this.all();
    const c = boxes.coords;
    this.colLo = cellCol(c[0]!);
    this.rowLo = cellRow(c[1]!);
    this.colHi = cellCol(c[2]!);
    this.rowHi = cellRow(c[3]!);
    return this;
  }

  /** Whether a posting cell (row << 16 | column) lies in the window. */
  has(cell: number): boolean {
    const row = cell >>> 16;
    const col = cell & 0xffff;
    return row >= this.rowLo && row <= this.rowHi && col >= this.colLo && col <= this.colHi;
  }
}
