import type KDBush from 'kdbush';

/** Fixed traversal stack (left, right, axis triples); depth is log2(n / nodeSize) + 1. */
const STACK = new Uint32Array(3 * 64);

/**
 * Calls `visit(id)` for every point of a finished kdbush index inside the box (inclusive),
 * without allocating: the same walk as kdbush's `range`, but with a visitor instead of a
 * result array. `visit` must not query the same index re-entrantly.
 */
export function visitRange(
  index: KDBush,
  minX: number,
  minY: number,
  maxX: number,
  maxY: number,
  visit: (id: number) => void,
): void {
  const { ids, coords, nodeSize } = index;
  if (ids.length === 0) return;
  STACK[0] = 0;
  STACK[1] = ids.length - 1;
  STACK[2] = 0;
  let sp = 3;
  while (sp > 0) {
    const axis = STACK[--sp]!;
    const right = STACK[--sp]!;
    const left = STACK[--sp]!;
    if (right - left <= nodeSize) {
      for (let i = left; i <= right; i++) {
        const x = coords[2 * i]!;
        const y = coords[2 * i + 1]!;
        if (x >= minX && x <= maxX && y >= minY && y <= maxY) visit(ids[i]!);
      }
      continue;
    }
    const m = (left + right) >> 1;
    const x = coords[2 * m]!;
    const y = coords[2 * m + 1]!;
    if (x >= minX && x <= maxX && y >= minY && y <= maxY) visit(ids[m]!);
    if (axis === 0 ? minX <= x : minY <= y) {
      STACK[sp++] = left;
      STACK[sp++] = m - 1;
      STACK[sp++] = 1 - axis;
    }
    if (axis === 0 ? maxX >= x : maxY >= y) {
      STACK[sp++] = m + 1;
      STACK[sp++] = right;
      STACK[sp++] = 1 - axis;
    }
  }
}
