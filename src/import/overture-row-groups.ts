/**
 * Row-group pruning for the Overture import: a row group's extent from its Parquet
 * statistics, and whether it may hold a point of a region. Kept apart from
 * overture-import.ts because it names hyparquet's metadata types, whose declarations need
 * DOM globals: the package's public declarations must not reach them (docs/packaging.md).
 */
import type { RowGroup } from 'hyparquet';
import type { LonLatBox } from './overture-to-venue.js';

function statNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  return undefined;
}

/** The row group's extent from its statistics, or undefined when they do not say. */
export function rowGroupExtent(rowGroup: RowGroup): LonLatBox | undefined {
  const stats = new Map<string, { min?: number; max?: number }>();
  for (const chunk of rowGroup.columns) {
    const meta = chunk.meta_data;
    if (meta === undefined) continue;
    const path = meta.path_in_schema.join('.');
    const geo = meta.geospatial_statistics?.bbox;
    if (path === 'geometry' && geo !== undefined) {
      return { west: geo.xmin, east: geo.xmax, south: geo.ymin, north: geo.ymax };
    }
    const s = meta.statistics;
    if (s !== undefined) {
      const min = statNumber(s.min_value ?? s.min);
      const max = statNumber(s.max_value ?? s.max);
      stats.set(path, { ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}) });
    }
  }
  const west = stats.get('bbox.xmin')?.min;
  const east = stats.get('bbox.xmax')?.max;
  const south = stats.get('bbox.ymin')?.min;
  const north = stats.get('bbox.ymax')?.max;
  if (west === undefined || east === undefined || south === undefined || north === undefined) return undefined;
  return { west, east, south, north };
}

/** True when a row group's extent (never crossing 180°) may hold a point of the region. */
export function extentMeetsRegion(extent: LonLatBox, region: LonLatBox): boolean {
  if (extent.north < region.south || extent.south > region.north) return false;
  if (region.west <= region.east) return !(extent.east < region.west || extent.west > region.east);
  // The region crosses the antimeridian: [west, 180] and [-180, east].
  return extent.east >= region.west || extent.west <= region.east;
}


/** The smallest extent holding both (neither crossing 180°); `a` undefined: `b`. */
export function unionExtent(a: LonLatBox | undefined, b: LonLatBox): LonLatBox {
  if (a === undefined) return b;
  return { west: Math.min(a.west, b.west), east: Math.max(a.east, b.east), south: Math.min(a.south, b.south), north: Math.max(a.north, b.north) };
}

/**
 * What to say when a region kept no row group: where the files' rows lie (`extent`, from the
 * row-group statistics read), and, for a `bbox`, its order (west,south,east,north) and the
 * box as it would be written had south,west,north,east been meant, when that one meets the rows.
 */
export function noRowGroupHint(extent: LonLatBox, bbox: LonLatBox | undefined): string {
  const down = (v: number) => (Math.floor(v * 10) / 10).toFixed(1);
  const up = (v: number) => (Math.ceil(v * 10) / 10).toFixed(1);
  const where = `no row group met the region: the files' rows lie in lon ${down(extent.west)}..${up(extent.east)}, lat ${down(extent.south)}..${up(extent.north)} (their row-group statistics)`;
  if (bbox === undefined) return where;
  const swapped = { west: bbox.south, south: bbox.west, east: bbox.north, north: bbox.east };
  const fits = Math.abs(swapped.south) <= 90 && Math.abs(swapped.north) <= 90 && extentMeetsRegion(extent, swapped);
  const retry = fits ? `; given in lat,lon order? --bbox ${[swapped.west, swapped.south, swapped.east, swapped.north].join(',')} meets them` : '';
  return `${where}; --bbox is west,south,east,north (longitude first)${retry}`;
}
