/**
 * Typo tolerance: edit distance (Levenshtein plus adjacent transpositions, the "optimal
 * string alignment" variant, so "loin" is 1 edit from "lion") between a typed word and the best-matching PREFIX of
 * a dictionary word, so "wetherspon" is 1 edit from "wetherspoons" (its prefix
 * "wetherspoon"). Bounded: returns `max + 1` as soon as no alignment can stay within `max`.
 */

/** Edits allowed for a typed word of `length` letters: none under 4, 1 up to 7, 2 from 8. */
export function typoBudget(length: number): number {
  if (length < 4) return 0;
  return length < 8 ? 1 : 2;
}

const MAX_WORD = 64;
// Two DP rows reused across calls (the engine is single-threaded).
let prevRow = new Int32Array(MAX_WORD + 1);
let currRow = new Int32Array(MAX_WORD + 1);
let backRow = new Int32Array(MAX_WORD + 1);

/**
 * min over prefixes p of `word` of osa(typed, p), or `max + 1` if that exceeds `max`.
 * Rows run over `typed` (length m); columns over `word`, only its first m + max letters
 * (a longer prefix is more than `max` insertions away).
 */
export function prefixEditDistance(typed: string, word: string, max: number): number {
  return boundedOsa(typed, word, max, false);
}

/**
 * osa(a, b) (whole words: Levenshtein plus adjacent transpositions), or `max + 1` if that
 * exceeds `max`. For suggestions ("Shoredich" -> "Shoreditch"), not a hot path.
 */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  return boundedOsa(a, b, max, true);
}

/** The banded DP of both: over prefixes of `word` (min of the last row), or `word` whole. */
function boundedOsa(typed: string, word: string, max: number, whole: boolean): number {
  const m = typed.length;
  if (m > MAX_WORD) return max + 1;
  if (whole && word.length === 0) return m <= max ? m : max + 1;
  const cols = Math.min(word.length, m + max);
  if (prevRow.length < m + 1) {
    prevRow = new Int32Array(m + 1);
    currRow = new Int32Array(m + 1);
    backRow = new Int32Array(m + 1);
  }
  // Column-major DP: prev[r] = distance(typed[0..r), word[0..c)). Column 0: r deletions.
  // Only the band |r - c| <= max is computed (a cell outside it is > max, and a path of
  // cost <= max never leaves it); the cells just outside the band hold the sentinel max + 1.
  let prev = prevRow;
  let curr = currRow;
  let back = backRow; // the column before `prev`, for transpositions
  const cap = max + 1;
  for (let r = 0; r <= m; r++) prev[r] = r;
  let best = prev[m]!;
  for (let c = 1; c <= cols; c++) {
    const wc = word.charCodeAt(c - 1);
    const lo = c - max > 1 ? c - max : 1;
    const hi = c + max < m ? c + max : m;
    curr[0] = c;
    if (lo > 1) curr[lo - 1] = cap;
    if (hi < m) curr[hi + 1] = cap;
    let colMin = lo === 1 ? c : cap;
    for (let r = lo; r <= hi; r++) {
      const tc = typed.charCodeAt(r - 1);
      let v = prev[r - 1]! + (tc === wc ? 0 : 1);
      const del = prev[r]! + 1;
      const ins = curr[r - 1]! + 1;
      if (del < v) v = del;
      if (ins < v) v = ins;
      if (r > 1 && c > 1 && tc === word.charCodeAt(c - 2) && typed.charCodeAt(r - 2) === wc) {
        const tr = back[r - 2]! + 1;
        if (tr < v) v = tr;
      }
      curr[r] = v;
      if (v < colMin) colMin = v;
    }
    if (whole) {
      if (c === word.length) return hi === m && curr[m]! <= max ? curr[m]! : max + 1;
    } else if (hi === m && curr[m]! < best) best = curr[m]!;
    if (colMin > max) break; // every later column is at least this
    const t = back;
    back = prev;
    prev = curr;
    curr = t;
  }
  if (whole) return max + 1; // left the band before the last column
  return best <= max ? best : max + 1;
}
