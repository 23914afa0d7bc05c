/**
 * The structure check of a snapshot's compressed-row ("starts") columns: row k of a data
 * section is entries `starts[k] .. starts[k + 1]`, so `starts` must begin at 0, never
 * decrease and end at the data section's length. A flipped byte that breaks this made a row
 * billions of entries long (audit 69c F1: a search that never returned); a snapshot that
 * breaks it is refused instead. One pass over the column, no allocation; it may be done in
 * parts (`from`, `to`) by a restore in steps.
 */

/**
 * Why entries `from .. to - 1` of `starts` are not row starts of a data section of
 * `dataLength` entries, or null when they are (each part checks its entries against the one
 * before; the part holding entry 0 checks it is 0, the one holding the last entry that it
 * is `dataLength`).
 */
export function rowStartsProblem(starts: Uint32Array, dataLength: number, from = 0, to = starts.length): string | null {
  if (starts.length === 0) return 'it is empty (it holds a start per row and one more)';
  if (from === 0 && starts[0] !== 0) return `its first start is ${starts[0]}, not 0`;
  const first = Math.max(1, from);
  let previous = starts[first - 1]!;
  for (let k = first; k < to; k++) {
    const s = starts[k]!;
    if (s < previous) return `start ${k} is ${s}, below start ${k - 1} (${previous})`;
    previous = s;
  }
  const last = starts[starts.length - 1]!;
  if (to === starts.length && last !== dataLength) return `its last start is ${last}, not the ${dataLength} entries of its data`;
  return null;
}

/**
 * The first position of `column` in `from .. to - 1` whose value is not below `limit` (a
 * venue index past the venue count: a kd-tree id, a venue of `idOrder`), or -1 when there is
 * none. A flipped byte there made searches throw a RangeError (audit 69c F1's randomised
 * pass); one pass, which a restore in steps may do in parts.
 */
export function firstNotBelow(column: ArrayLike<number>, limit: number, from = 0, to = column.length): number {
  for (let k = from; k < to; k++) if (column[k]! >= limit) return k;
  return -1;
}
