/**
 * One continuous longitude range for what the map draws: results on both sides of the
 * antimeridian (Fiji at 179.5 and -179.5) are 1 degree apart on the globe but 359 apart on
 * Leaflet's plane, where a fit of their plain min/max framed the whole world centred on
 * Africa (audit 64c F7). The map draws every point moved by whole turns into
 * [west, west + 360), `west` being the west edge of the smallest interval holding them all.
 */

/** `lon` moved by whole turns into [from, from + 360); exact (unchanged) when already there, so a point's own longitude is never moved a turn by rounding. */
function turnInto(from: number, lon: number): number {
  let x = lon;
  while (x < from) x += 360;
  while (x >= from + 360) x -= 360;
  return x;
}

/**
 * The west edge of the smallest longitude interval holding every one of `lons` (degrees, any
 * range), in [-180, 180): the point after the widest empty gap between neighbours around the
 * globe. The plain minimum when that gap is the one across the antimeridian (the usual case,
 * so a map of Britain is drawn as before); -180 with no longitudes.
 */
export function westEdge(lons: readonly number[]): number {
  if (lons.length === 0) return -180;
  const sorted = lons.map((lon) => turnInto(-180, lon)).sort((a, b) => a - b);
  // the gap from the easternmost round the antimeridian to the westernmost
  let widest = sorted[0]! + 360 - sorted[sorted.length - 1]!;
  let west = sorted[0]!;
  for (let i = 1; i < sorted.length; i++) {
    const gap = sorted[i]! - sorted[i - 1]!;
    if (gap > widest) {
      widest = gap;
      west = sorted[i]!;
    }
  }
  return west;
}

/** `lon` moved by whole turns into [west, west + 360). */
export function unwrapFrom(west: number, lon: number): number {
  return turnInto(west, lon);
}
