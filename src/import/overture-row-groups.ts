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

