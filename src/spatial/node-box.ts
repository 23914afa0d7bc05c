import { BoxLayout } from '../geo/box-distance.js';

/**
 * The boxes of a kdbush tree's nodes, kept in Float64Arrays ({@link BoxLayout}) by the tree
 * walks, so that no coordinate crosses a call as a number (see src/geo/box-distance.ts
 * writeBoxLowerBound).
 */

/** Writes the whole world (lon -180..180, lat -90..90), the root's box, at `boxes[j ..]`. */
export function writeWorldBox(boxes: Float64Array, j: number): void {
  boxes[j + BoxLayout.MIN_X] = -180;
  boxes[j + BoxLayout.MIN_Y] = -90;
  boxes[j + BoxLayout.MAX_X] = 180;
  boxes[j + BoxLayout.MAX_Y] = 90;
}

/**
 * Writes at `to[q ..]` the box of a child of the node whose box is at `from[j ..]`, split on
 * `axis` (0: lon, 1: lat) at tree point m of `coords` (kdbush's lon, lat pairs): the lower
 * child (`upper` false, points <= the median on the axis) ends at the median, the upper
 * one starts there. `to` may be `from`, at another offset.
 */
export function writeChildBox(from: Float64Array, j: number, to: Float64Array, q: number, axis: number, coords: Float64Array, m: number, upper: boolean): void {
  to[q + BoxLayout.MIN_X] = from[j + BoxLayout.MIN_X]!;
  to[q + BoxLayout.MIN_Y] = from[j + BoxLayout.MIN_Y]!;
  to[q + BoxLayout.MAX_X] = from[j + BoxLayout.MAX_X]!;
  to[q + BoxLayout.MAX_Y] = from[j + BoxLayout.MAX_Y]!;
  // the side cut at the median: the lower child's max, the upper child's min, on the axis
  const side = upper ? (axis === 0 ? BoxLayout.MIN_X : BoxLayout.MIN_Y) : axis === 0 ? BoxLayout.MAX_X : BoxLayout.MAX_Y;
  to[q + side] = coords[2 * m + axis]!;
}
