import type KDBush from 'kdbush';

/**
 * The order of the points inside a kdbush tree's leaves. kdbush leaves a leaf's points in
 * whatever order its partition left them; every kdbush query scans a whole leaf, so any order
 * inside a leaf keeps the tree valid. Sorted by latitude (the tree's y), a thin query (a
 * corridor piece running east-west, src/spatial/corridor.ts) binary-searches the latitude
 * band it can reach instead of testing every point of the leaf.
 *
 * Leaves are found by kdbush's own recursion: a node [left, right] is a leaf when
 * right - left <= nodeSize, else its middle point m = (left + right) >> 1 splits it into
 * [left, m - 1] and [m + 1, right].
 */

/** Sorts every leaf's points by latitude (ties by longitude), moving ids and coords together. In place; before the tree is shared. */
export function sortLeavesByLat(tree: KDBush): void {
  const { ids, coords } = tree;
  forEachLeaf(tree, (left, right) => {
    // Insertion sort: leaves hold at most nodeSize + 1 points.
    for (let i = left + 1; i <= right; i++) {
      const id = ids[i]!;
      const x = coords[2 * i]!;
      const y = coords[2 * i + 1]!;
      let j = i - 1;
      while (j >= left && (coords[2 * j + 1]! > y || (coords[2 * j + 1] === y && coords[2 * j]! > x))) {
        ids[j + 1] = ids[j]!;
        coords[2 * j + 2] = coords[2 * j]!;
        coords[2 * j + 3] = coords[2 * j + 1]!;
        j--;
      }
      ids[j + 1] = id;
      coords[2 * j + 2] = x;
      coords[2 * j + 3] = y;
    }
  });
}

/** Whether every leaf's points are in non-decreasing latitude (a tree built elsewhere, e.g. an older snapshot's, may not be). Reads only. */
export function leavesSortedByLat(tree: KDBush): boolean {
  const { coords } = tree;
  let sorted = true;
  forEachLeaf(tree, (left, right) => {
    for (let i = left + 1; i <= right && sorted; i++) if (coords[2 * i + 1]! < coords[2 * i - 1]!) sorted = false;
  });
  return sorted;
}

function forEachLeaf(tree: KDBush, visit: (left: number, right: number) => void): void {
  const n = tree.ids.length;
  if (n === 0) return;
  const nodeSize = tree.nodeSize;
  // A kdbush tree is under 40 levels deep even for 2^32 points: one pending sibling per level.
  const stack = new Int32Array(2 * 64);
  stack[0] = 0;
  stack[1] = n - 1;
  let sp = 1;
  while (sp > 0) {
    sp--;
    const left = stack[2 * sp]!;
    const right = stack[2 * sp + 1]!;
    if (right - left <= nodeSize) {
      visit(left, right);
      continue;
    }
    const m = (left + right) >> 1;
    stack[2 * sp] = left;
    stack[2 * sp + 1] = m - 1;
    sp++;
    stack[2 * sp] = m + 1;
    stack[2 * sp + 1] = right;
    sp++;
  }
}
