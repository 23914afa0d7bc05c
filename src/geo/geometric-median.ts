import { LocalPlane, norm } from './local-plane.js';
import { weightedMidpoint, type WeightedPoint } from './midpoint.js';

/**
 * The weighted geometric median of the points (the MIN_TOTAL meeting point: the place
 * with the least weighted sum of distances), by Weiszfeld's iteration in a
 * {@link LocalPlane} around their weighted midpoint, with the Vardi-Zhang rule when the
 * iterate lands on a point: that point is the median exactly when the pull of the others
 * is at most its own weight. Points of weight 0 are ignored (at least one weight must be
 * positive). Stops when a step moves less than 1 mm, or after 1,000 steps. Degrees in and out.
 */
export function geometricMedian(points: ReadonlyArray<WeightedPoint>): { lat: number; lon: number } {
  const origin = weightedMidpoint(points);
  const plane = new LocalPlane(origin.lat, origin.lon);
  const xs: number[] = [];
  const ys: number[] = [];
  const ws: number[] = [];
  for (const p of points) {
    const w = p.weight ?? 1;
    if (!(w > 0)) continue;
    xs.push(plane.x(p.lon));
    ys.push(plane.y(p.lat));
    ws.push(w);
  }
  const m = weiszfeld(xs, ys, ws);
  return { lat: plane.latOf(m.y), lon: plane.lonOf(m.x) };
}

/** Weighted geometric median of planar points (metres), weights > 0. */
export function weiszfeld(xs: readonly number[], ys: readonly number[], ws: readonly number[]): { x: number; y: number } {
  const n = xs.length;
  let total = 0;
  let x = 0;
  let y = 0;
  for (let i = 0; i < n; i++) {
    x += ws[i]! * xs[i]!;
    y += ws[i]! * ys[i]!;
    total += ws[i]!;
  }
  x /= total;
  y /= total;
  for (let step = 0; step < 1000; step++) {
    let sx = 0;
    let sy = 0;
    let sw = 0;
    let at = -1;
    for (let i = 0; i < n; i++) {
      const d = norm(xs[i]! - x, ys[i]! - y);
      if (d < 1e-9) {
        at = i;
        continue;
      }
      sx += (ws[i]! * xs[i]!) / d;
      sy += (ws[i]! * ys[i]!) / d;
      sw += ws[i]! / d;
    }
    if (sw === 0) break; // every point coincides with the iterate
    let nx = sx / sw;
    let ny = sy / sw;
    if (at >= 0) {
      // On a data point: the others pull with force |R|; stay if it is at most the point's weight.
      const rx = sx - x * sw;
      const ry = sy - y * sw;
      const pull = norm(rx, ry);
      if (pull <= ws[at]!) break;
      const t = Math.max(0, 1 - ws[at]! / pull);
      nx = x + t * (nx - x);
      ny = y + t * (ny - y);
    }
    const moved = norm(nx - x, ny - y);
    x = nx;
    y = ny;
    if (moved < 1e-3) break;
  }
  return { x, y };
}
