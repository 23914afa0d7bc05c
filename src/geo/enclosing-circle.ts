import { LocalPlane, norm } from './local-plane.js';
import { weightedMidpoint } from './midpoint.js';

/**
 * The centre of the smallest circle enclosing the points (the MIN_MAX meeting point of a
 * group: the place whose farthest person is nearest), by Welzl's algorithm in its
 * iterative move-to-front form, in a {@link LocalPlane} around the points' midpoint.
 * Deterministic (no shuffling): O(n^3) worst case, which for the at most 100 locations of
 * a request is microseconds. Degrees in and out.
 */
export function enclosingCircleCentre(points: ReadonlyArray<{ lat: number; lon: number }>): { lat: number; lon: number } {
  if (points.length === 0) throw new Error('enclosingCircleCentre of no points');
  const origin = weightedMidpoint(points.map((p) => ({ lat: p.lat, lon: p.lon })));
  const plane = new LocalPlane(origin.lat, origin.lon);
  const xs = points.map((p) => plane.x(p.lon));
  const ys = points.map((p) => plane.y(p.lat));
  const c = smallestCircle(xs, ys);
  return { lat: plane.latOf(c.y), lon: plane.lonOf(c.x) };
}

interface Circle {
  x: number;
  y: number;
  r: number;
}

/** Tolerance (metres) of "inside": points this close outside a circle count as in. */
const EPS = 1e-7;

function inside(c: Circle, x: number, y: number): boolean {
  return norm(x - c.x, y - c.y) <= c.r + EPS;
}

/** Smallest circle enclosing the planar points (metres). */
export function smallestCircle(xs: readonly number[], ys: readonly number[]): Circle {
  const n = xs.length;
  let c: Circle = { x: xs[0]!, y: ys[0]!, r: 0 };
  for (let i = 1; i < n; i++) {
    if (inside(c, xs[i]!, ys[i]!)) continue;
    // i lies on the boundary of the circle of points 0..i
    c = { x: xs[i]!, y: ys[i]!, r: 0 };
    for (let j = 0; j < i; j++) {
      if (inside(c, xs[j]!, ys[j]!)) continue;
      // i and j on the boundary
      c = diameter(xs[i]!, ys[i]!, xs[j]!, ys[j]!);
      for (let k = 0; k < j; k++) {
        if (inside(c, xs[k]!, ys[k]!)) continue;
        c = circumcircle(xs[i]!, ys[i]!, xs[j]!, ys[j]!, xs[k]!, ys[k]!);
      }
    }
  }
  return c;
}

function diameter(ax: number, ay: number, bx: number, by: number): Circle {
  return { x: (ax + bx) / 2, y: (ay + by) / 2, r: norm(ax - bx, ay - by) / 2 };
}

/** Circle through three points; for (nearly) collinear ones, the diameter of the farthest pair. */
function circumcircle(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): Circle {
  const bxr = bx - ax;
  const byr = by - ay;
  const cxr = cx - ax;
  const cyr = cy - ay;
  const d = 2 * (bxr * cyr - byr * cxr);
  if (Math.abs(d) < 1e-12) {
    const ab = diameter(ax, ay, bx, by);
    const ac = diameter(ax, ay, cx, cy);
    const bc = diameter(bx, by, cx, cy);
    return ab.r >= ac.r && ab.r >= bc.r ? ab : ac.r >= bc.r ? ac : bc;
  }
  const b2 = bxr * bxr + byr * byr;
  const c2 = cxr * cxr + cyr * cyr;
  const ux = (cyr * b2 - byr * c2) / d;
  const uy = (bxr * c2 - cxr * b2) / d;
  return { x: ax + ux, y: ay + uy, r: norm(ux, uy) };
}
