import { OPTIONAL_QUERY_WORDS, nameTokens } from './normalize-name.js';
import type { CellWindow } from './posting-cells.js';
import { prefixEditDistance, typoBudget } from './prefix-edit-distance.js';

/** Match quality of one query word against one name word. */
export const MATCH_EXACT = 3;
export const MATCH_PREFIX = 2;
export const MATCH_TYPO = 1;

/**
 * One query word resolved against the dictionary: the token ids `[lo, hi)` that start with
 * it (a contiguous range, the dictionary being sorted), the id equal to it (or -1), and,
 * when no token starts with it or the query is widened, the ids within a small edit
 * distance (`typo`, ascending; for a widened word that starts tokens, its range among them).
 * `postings` is the number of (venue, token) postings the word can match: the cost of
 * enumerating candidates from it.
 */
export interface PreparedWord {
  readonly text: string;
  readonly lo: number;
  readonly hi: number;
  readonly exact: number;
  readonly typo: Int32Array | null;
  readonly postings: number;
}

export interface PreparedNameQuery {
  readonly words: readonly PreparedWord[];
  /**
   * The dictionary ids of every word of the query as typed, in order, filler words and
   * repeats included ("The Cafe", "Caffe Caffe"), when `words` dropped some of them; null when
   * it dropped none (the summed qualities, lead bonus and word count already put a name equal
   * to the query first) or when a word is not in this index's dictionary (no name equals it).
   * A name equal to it is an exact name match (matchKey: EXACT_NAME).
   */
  readonly whole: Uint32Array | null;
  /** Index in `words` of the word with the fewest postings (candidates come from it); -1 when nothing can match. */
  readonly rarest: number;
  /** Upper bound on the candidates enumerated from the rarest word. */
  readonly estimatedCandidates: number;
}

/**
 * What {@link NameIndex.forEachMatch} calls for each match. An object with a method rather
 * than a callback: find passes one object of one class (src/find/match-collector.ts), so the
 * index's call sites always see one target. With two closures (one per find plan), the
 * optimised enumeration was specialised on whichever it saw last and deoptimised at the
 * other ("wrong feedback cell"), again after collections reset the call's feedback: the
 * bench's deopt check found that loop in `visitTokenFast`.
 */
export interface MatchVisitor {
  visit(venue: number, key: number): void;
  /**
   * Reads what `visit(venue, ...)` will read, ahead of it: the enumeration calls it for a
   * batch of candidates before visiting them, so that their cache misses overlap. Returns
   * any number of what it read (kept, so the reads are not dropped). Optional.
   */
  touch?(venue: number): number;
}

/** A {@link NameIndex}'s built arrays, as a snapshot saves them (src/snapshot). */
export interface NameIndexParts {
  readonly tokens: readonly string[];
  readonly postStart: Uint32Array;
  readonly postVenue: Uint32Array;
  readonly postInfo: Uint8Array;
  readonly venueStart: Uint32Array;
  readonly venueTok: Uint32Array;
}

/** Word counts above this rank like it (6 bits of the key and of postInfo). */
const MAX_COUNTED_WORDS = 63;
/**
 * The word-count part of the relevance key of a name equal to the whole query (filler words
 * and repeats included): above every counted name's (MAX_COUNTED_WORDS - words, at most 62),
 * so among names of one summed quality the name typed in full comes first ("The Cafe" before
 * "Cafe" for the query "The Cafe"; audit 59b).
 */
const EXACT_NAME = MAX_COUNTED_WORDS;
const INFO_LEAD = 0x80;
const INFO_SHARES = 0x40;

// NameIndex.sharedBest's byte: bits 0-1 the best match quality seen among the venue's
// tokens (MATCH_TYPO..MATCH_EXACT, never 0 once seen), bit 2 set when one of them is the
// name's lead word.
const SHARED_QUALITY = 0x03;
const SHARED_LEAD = 0x04;

/**
 * A multi-word query marks the venues of its second rarest word when that word has at most
 * this many times the rarest word's postings, whatever share of the rarest word's venues
 * the marks turn away: marking and clearing cost two bit writes per posting (clearing less
 * for a word of many postings: CLEAR_ALL_WORDS_PER_POSTING), a matchKey
 * spared about MARK_GAIN times that (measured at 300k venues, issue 16; at 1M: 4.5 ns a
 * posting marked and cleared, about 55 ns a matchKey spared).
 */
const MARK_RATIO = 4;
/**
 * Above MARK_RATIO and up to this ratio, the marks pay when enough of the rarest word's
 * venues lack the second word: they are marked when ratio < MARK_GAIN x the share of
 * MARK_SAMPLES venues, spread over the rarest word's postings, that lack it. Above it,
 * never ("costa c": every Costa has a c-word, and marking the 280,468 postings of "c" at 1M
 * tripled the query's time).
 */
const MARK_GAIN = 10;
const MARK_SAMPLES = 32;
/**
 * The marks are cleared by zeroing the whole bit set (a memset: about 1 µs for the 31,250
 * words of 1M venues) rather than word by word over the postings (about 1.4 ns a posting)
 * once the postings number at least the bit set's words over this. Measured on the 2-core
 * AMD machine, 2026-12-03: 1,000 postings 2.6 µs against 1.0 µs, 64,000 postings 91 µs
 * against 1.0 µs.
 */
const CLEAR_ALL_WORDS_PER_POSTING = 32;
/** forEachMatch reads this many candidates' words ahead of matching them (visitAhead). */
const READ_AHEAD = 32;
/** aheadToken of a candidate not flagged INFO_SHARES (no token id is this large). */
const NOT_SHARED = 0xffffffff;

const EMPTY_QUERY: PreparedNameQuery = { words: [], whole: null, rarest: -1, estimatedCandidates: 0 };
const NO_TYPO = new Int32Array(0);

/**
 * An inverted index over venue names, built once, for whole/partial, accent- and
 * case-insensitive, typo-tolerant name lookup. Layout (all typed arrays, dense venue
 * indices as in the store):
 * - `tokens`: the distinct normalised words, sorted (code-unit order), id = position;
 * - postings CSR: venues having token t are `postVenue[postStart[t] .. postStart[t+1])`,
 *   ascending, without duplicates;
 * - forward CSR: venue i's words in name order are `venueTok[venueStart[i] .. venueStart[i+1])`.
 * Queries enumerate the postings of their rarest word and verify the other words on the
 * venue's own (few) words, so a query costs O(postings of the rarest word).
 */
export class NameIndex {
  readonly size: number;
  readonly tokens: readonly string[];
  readonly postStart: Uint32Array;
  readonly postVenue: Uint32Array;
  /**
   * Per posting (parallel to postVenue): bit 7 = the word is the name's lead word (first
   * significant), bit 6 = the name has another word with the same first letter (so the
   * venue may occur twice in one prefix range), bits 0-5 = the name's word count (capped
   * at 63). Lets one-word queries rank a posting without touching the venue's word list.
   */
  readonly postInfo: Uint8Array;
  readonly venueStart: Uint32Array;
  readonly venueTok: Uint32Array;
  /** 1 for dictionary words in OPTIONAL_QUERY_WORDS ("the", "of", ...). */
  private readonly optionalToken: Uint8Array;
  /** One bit per venue, all clear between calls: forEachMatch's marks (built at first use). */
  private marks: Uint32Array | null = null;
  /**
   * One byte per venue, all 0 between calls (built at first use): during a one-word
   * enumeration, the best match so far of a venue whose postings are flagged INFO_SHARES
   * (its bits: SHARED_QUALITY, SHARED_LEAD), so that it is visited once, after every token.
   */
  private sharedBest: Uint8Array | null = null;
  /** The first flagged posting of each such venue in the current one-word enumeration; `sharedCount` in use. */
  private sharedPostings = new Uint32Array(64);
  private sharedCount = 0;
  /** forEachMatch's candidates read ahead: their venues and the tokens they came under (READ_AHEAD of each; `aheadCount` in use). */
  private readonly aheadVenue = new Uint32Array(READ_AHEAD);
  private readonly aheadToken = new Uint32Array(READ_AHEAD);
  private aheadCount = 0;
  /** A sum of the words read ahead, kept so that the reads are not dropped as unused; a double from the start (as MultiLocationSearch's `touched`: a field first holding a small integer changes its object's map at its first fraction). */
  private touched = 0.5;

  /** Builds the index over venue names (venue i's name is `names[i]`), or restores saved parts. */
  constructor(input: ArrayLike<string> | NameIndexParts) {
    if ('postStart' in input) {
      const n = input.venueStart.length - 1;
      const T = input.tokens.length;
      if (n < 0 || input.postStart.length !== T + 1 || input.postVenue.length !== input.postInfo.length || input.postStart[T] !== input.postVenue.length || input.venueStart[n] !== input.venueTok.length) {
        throw new RangeError('name index parts do not fit together');
      }
      this.size = n;
      this.tokens = input.tokens;
      this.postStart = input.postStart;
      this.postVenue = input.postVenue;
      this.postInfo = input.postInfo;
      this.venueStart = input.venueStart;
      this.venueTok = input.venueTok;
      this.optionalToken = optionalTokens(this.tokens);
      return;
    }
    const names = input;
    const n = names.length;
    this.size = n;
    const idOf = new Map<string, number>();
    const provisional: string[] = [];
    const venueStart = new Uint32Array(n + 1);
    let fwd = new Uint32Array(Math.max(16, n * 3));
    let fwdLen = 0;
    for (let i = 0; i < n; i++) {
      for (const w of nameTokens(names[i]!)) {
        let id = idOf.get(w);
        if (id === undefined) {
          id = provisional.length;
          idOf.set(w, id);
          provisional.push(w);
        }
        if (fwdLen === fwd.length) {
          const grown = new Uint32Array(fwd.length * 2);
          grown.set(fwd);
          fwd = grown;
        }
        fwd[fwdLen++] = id;
      }
      venueStart[i + 1] = fwdLen;
    }
    // Sort the dictionary and renumber: prefix queries become contiguous id ranges.
    const { tokens, rank } = sortedTokens(provisional);
    this.tokens = tokens;
    const venueTok = fwd.slice(0, fwdLen);
    for (let k = 0; k < fwdLen; k++) venueTok[k] = rank[venueTok[k]!]!;
    this.venueStart = venueStart;
    this.venueTok = venueTok;
    const built = postings(tokens, venueStart, venueTok);
    this.postStart = built.postStart;
    this.postVenue = built.postVenue;
    this.postInfo = built.postInfo;
    this.optionalToken = built.optionalToken;
  }

  /**
   * The index of venues whose words are given (compaction, src/live/fold-sides.ts): venue i's
   * words in name order are token ids `venueTok[venueStart[i] .. venueStart[i + 1])` into
   * `tokens` (distinct, sorted as {@link sortedTokens} sorts); the postings are derived.
   */
  static fromWords(tokens: readonly string[], venueStart: Uint32Array, venueTok: Uint32Array): NameIndex {
    const { postStart, postVenue, postInfo } = postings(tokens, venueStart, venueTok);
    return new NameIndex({ tokens, postStart, postVenue, postInfo, venueStart, venueTok });
  }

  /** The built arrays (themselves, not copies: do not change them), for a snapshot. */
  parts(): NameIndexParts {
    const { tokens, postStart, postVenue, postInfo, venueStart, venueTok } = this;
    return { tokens, postStart, postVenue, postInfo, venueStart, venueTok };
  }

  private leadPosition(start: number, end: number): number {
    return leadPosition(this.optionalToken, this.venueTok, start, end);
  }

  /** Bytes of the typed arrays plus an estimate of the dictionary strings (2 bytes a char + 16 a string). */
  get byteSize(): number {
    let dict = 0;
    for (const t of this.tokens) dict += 16 + 2 * t.length;
    return (
      this.postStart.byteLength +
      this.postVenue.byteLength +
      this.postInfo.byteLength +
      this.venueStart.byteLength +
      this.venueTok.byteLength +
      this.optionalToken.byteLength +
      dict
    );
  }

  /** Number of words of venue i's name. */
  wordCount(i: number): number {
    return this.venueStart[i + 1]! - this.venueStart[i]!;
  }

  /**
   * Resolves a query's words against the dictionary. Every word matches as a word prefix
   * ("red li" -> "Red Lion"); a word of 4+ letters that starts no dictionary word is matched
   * by bounded edit distance instead. Filler words (the, of, and, ...) are dropped when the
   * query has other words. `widened` (find's second try, when no name anywhere matches the
   * query as typed: see {@link widens}): every word of 4+ letters matches as a prefix or
   * within its typo budget ("red lino" finds "Red Lion" although "Lino" is a name word).
   */
  prepare(query: string, prefixKnown?: (word: string) => boolean, widened = false): PreparedNameQuery {
    const typed = nameTokens(query);
    const texts = queryWords(query, typed);
    if (texts.length === 0) return EMPTY_QUERY;
    const words: PreparedWord[] = [];
    let rarest = -1;
    let best = Infinity;
    for (const text of texts) {
      const w = this.prepareWord(text, prefixKnown, widened);
      if (w.postings === 0) return EMPTY_QUERY; // a word nothing matches: the AND is empty
      if (w.postings < best) {
        best = w.postings;
        rarest = words.length;
      }
      words.push(w);
    }
    return { words, whole: this.wholeQuery(typed, texts.length), rarest, estimatedCandidates: best };
  }

  /** PreparedNameQuery.whole of a query whose words as typed are `all`, and matched words `matched` many. */
  private wholeQuery(all: readonly string[], matched: number): Uint32Array | null {
    if (all.length === matched || all.length > MAX_COUNTED_WORDS) return null;
    const ids = new Uint32Array(all.length);
    for (let k = 0; k < all.length; k++) {
      const t = this.lowerBound(all[k]!);
      if (t >= this.tokens.length || this.tokens[t] !== all[k]) return null;
      ids[k] = t;
    }
    return ids;
  }

  /**
   * Whether some venue that is not hidden (`hidden[i] === 0`) matches every word of `q`,
   * wherever it is: the rarest word's postings are read until the first match.
   */
  anyMatch(q: PreparedNameQuery, hidden: Uint8Array | null): boolean {
    if (q.rarest < 0) return false;
    const word = q.words[q.rarest]!;
    const { postStart, postVenue } = this;
    const tokens = word.typo !== null ? word.typo.length : word.hi - word.lo;
    for (let k = 0; k < tokens; k++) {
      const t = word.typo !== null ? word.typo[k]! : word.lo + k;
      for (let p = postStart[t]!, end = postStart[t + 1]!; p < end; p++) {
        const i = postVenue[p]!;
        if (hidden !== null && hidden[i] !== 0) continue;
        if (q.words.length === 1 || this.matchKey(i, q) > 0) return true;
      }
    }
    return false;
  }

  /**
   * Whether `prepare(query, prefixKnown, true)` can match more than `prepare(query,
   * prefixKnown)`: some word of 4+ letters is matched as a prefix as typed (a word matched
   * by edit distance is matched so either way).
   */
  widens(query: string, prefixKnown?: (word: string) => boolean): boolean {
    for (const text of queryWords(query)) {
      if (typoBudget(text.length) > 0 && (prefixKnown === undefined ? this.hasPrefix(text, null) : prefixKnown(text))) return true;
    }
    return false;
  }

  /**
   * `prefixKnown(word)` says whether a word is matched as a prefix or by edit distance
   * (default: as a prefix when some dictionary word starts with it). Live data gives the
   * answer for the whole current record set, of which this index holds a part (src/live).
   * `widened`: a prefix word with a typo budget also matches by edit distance; its `typo`
   * list then holds its prefix range's tokens too (they are at distance 0), and `lo`/`hi`/
   * `exact` still tell which of them match as a prefix or exactly.
   */
  private prepareWord(text: string, prefixKnown: ((word: string) => boolean) | undefined, widened: boolean): PreparedWord {
    const lo = this.lowerBound(text);
    const hi = this.lowerBound(text + '\uffff');
    const exact = lo < hi && this.tokens[lo] === text ? lo : -1;
    const asPrefix = prefixKnown === undefined ? lo < hi : prefixKnown(text);
    if (asPrefix && !(widened && typoBudget(text.length) > 0)) {
      return { text, lo, hi, exact, typo: null, postings: this.postStart[hi]! - this.postStart[lo]! };
    }
    const typo = this.typoCandidates(text);
    let postings = 0;
    for (let k = 0; k < typo.length; k++) postings += this.postStart[typo[k]! + 1]! - this.postStart[typo[k]!]!;
    return asPrefix ? { text, lo, hi, exact, typo, postings } : { text, lo: 0, hi: 0, exact: -1, typo, postings };
  }

  /**
   * Tokens within the typo budget of `text` read as a prefix (see prefixEditDistance).
   * Only tokens sharing the first letter are checked: first letters are rarely mistyped,
   * and it bounds the scan to one block of the sorted dictionary.
   */
  private typoCandidates(text: string): Int32Array {
    const k = typoBudget(text.length);
    if (k === 0) return NO_TYPO;
    const first = text[0]!;
    const lo = this.lowerBound(first);
    const hi = this.lowerBound(first + '\uffff');
    const found: number[] = [];
    for (let t = lo; t < hi; t++) {
      const tok = this.tokens[t]!;
      if (tok.length < text.length - k) continue;
      if (prefixEditDistance(text, tok, k) <= k) found.push(t);
    }
    return Int32Array.from(found);
  }

  /** Whether a venue that is not hidden (`hidden[i] === 0`) has a name word starting with `word`. */
  hasPrefix(word: string, hidden: Uint8Array | null): boolean {
    const lo = this.lowerBound(word);
    const hi = this.lowerBound(word + '\uffff');
    if (hidden === null) return lo < hi;
    for (let p = this.postStart[lo]!, end = this.postStart[hi]!; p < end; p++) if (hidden[this.postVenue[p]!] === 0) return true;
    return false;
  }

  /** First token id whose token is >= s. */
  private lowerBound(s: string): number {
    return lowerBound(this.tokens, s);
  }

  /**
   * Relevance key of venue i for the query, or 0 if it does not match every word. Higher is
   * better: the sum over query words of the best match quality (exact 3, prefix 2, typo 1),
   * plus 1 when the first query word matches (in any quality) the first significant word of
   * the name (a leading filler such as "The" skipped); then, in the low
   * 6 bits, fewer name words first (a name that is exactly the query beats a longer one).
   */
  matchKey(i: number, q: PreparedNameQuery): number {
    const start = this.venueStart[i]!;
    const end = this.venueStart[i + 1]!;
    const words = q.words;
    if (words.length === 0) return 0;
    // Position of the name's first significant word ("Red" in "The Red Lion").
    const lead = this.leadPosition(start, end);
    let score = 0;
    for (let w = 0; w < words.length; w++) {
      const word = words[w]!;
      let best = 0;
      for (let k = start; k < end && best < MATCH_EXACT; k++) {
        const m = wordQuality(word, this.venueTok[k]!);
        if (m > best) best = m;
      }
      if (best === 0) return 0;
      score += best;
      if (w === 0 && wordQuality(word, this.venueTok[lead]!) > 0) score += 1;
    }
    const count = end - start;
    const whole = q.whole;
    if (whole !== null && count === whole.length && this.isWholeName(start, whole)) return score * 64 + EXACT_NAME;
    return relevanceKey(score, count > MAX_COUNTED_WORDS ? MAX_COUNTED_WORDS : count);
  }

  /** Whether the name whose words start at `start` is `whole`, word for word (as long). */
  private isWholeName(start: number, whole: Uint32Array): boolean {
    const venueTok = this.venueTok;
    for (let k = 0; k < whole.length; k++) if (venueTok[start + k] !== whole[k]) return false;
    return true;
  }

  /**
   * Calls `visitor.visit(venue, key)` once for every venue matching all words (key as in
   * {@link matchKey}), enumerating the rarest word's postings. Order: by token, then venue
   * (for a one-word query, the venues under two of its tokens come last).
   * With `cells` (postingCells of this index) and `window`, only the venues whose posting
   * cell lies in the window are matched and visited (the others are skipped before their
   * words are read); without, every match.
   */
  forEachMatch(q: PreparedNameQuery, visitor: MatchVisitor, cells: Uint32Array | null = null, window: CellWindow | null = null): void {
    if (q.rarest < 0) return;
    const word = q.words[q.rarest]!;
    const area = cells !== null && window !== null ? window : null;
    // (a query with an exact-name rule reads each candidate's words: the general path)
    if (q.words.length === 1 && q.whole === null) {
      this.forEachSingleWordMatch(word, visitor, area === null ? null : cells, area);
      return;
    }
    const { postStart, postVenue, postInfo } = this;
    // A venue can be under two of the word's tokens only if the word has two or more.
    const shares = (word.typo !== null ? word.typo.length : word.hi - word.lo) > 1 ? INFO_SHARES : 0;
    const rowLo = area?.rowLo ?? 0;
    const rowHi = area?.rowHi ?? 0;
    const colLo = area?.colLo ?? 0;
    const colHi = area?.colHi ?? 0;
    // The venues of the next rarest word, marked from its postings when they are few enough
    // (a bit test then spares matchKey, which reads the venue's words, for most candidates).
    const second = this.secondRarest(q, area === null ? null : cells, area);
    const marks = second !== null ? this.markVenues(second) : null;
    // The candidates' words are read READ_AHEAD venues at a time (visitAhead): their cache
    // misses then overlap instead of stalling each matchKey in turn. Candidates are visited in
    // the order they come, as one by one.
    const aheadVenue = this.aheadVenue;
    const aheadToken = this.aheadToken;
    this.aheadCount = 0;
    const visitToken = (t: number): void => {
      for (let p = postStart[t]!, end = postStart[t + 1]!; p < end; p++) {
        if (area !== null) {
          const cell = cells![p]!;
          const row = cell >>> 16;
          const col = cell & 0xffff;
          if (row < rowLo || row > rowHi || col < colLo || col > colHi) continue;
        }
        const i = postVenue[p]!;
        if (marks !== null && (marks[i >>> 5]! & (1 << (i & 31))) === 0) continue;
        // a venue under two of the word's tokens: flagged by the posting, decided at its visit
        aheadVenue[this.aheadCount] = i;
        aheadToken[this.aheadCount] = (postInfo[p]! & shares) !== 0 ? t : NOT_SHARED;
        if (++this.aheadCount === READ_AHEAD) this.visitAhead(q, word, visitor);
      }
    };
    try {
      if (word.typo !== null) for (let k = 0; k < word.typo.length; k++) visitToken(word.typo[k]!);
      else for (let t = word.lo; t < word.hi; t++) visitToken(t);
      this.visitAhead(q, word, visitor);
    } finally {
      this.aheadCount = 0;
      if (second !== null) this.unmarkVenues(second);
    }
  }

  /**
   * Visits forEachMatch's candidates held in aheadVenue / aheadToken, in order: first one
   * pass reads each one's first word (venueStart, then venueTok: the loads of different
   * candidates do not depend on each other, so their misses overlap), then each is matched
   * as one by one (isFirstMatchingToken for a flagged one, matchKey) and visited.
   */
  private visitAhead(q: PreparedNameQuery, word: PreparedWord, visitor: MatchVisitor): void {
    const count = this.aheadCount;
    this.aheadCount = 0;
    const { aheadVenue, aheadToken, venueStart, venueTok } = this;
    let touched = 0.5;
    for (let k = 0; k < count; k++) touched += venueTok[venueStart[aheadVenue[k]!]!] ?? 0;
    if (visitor.touch !== undefined) for (let k = 0; k < count; k++) touched += visitor.touch(aheadVenue[k]!);
    this.touched = touched;
    for (let k = 0; k < count; k++) {
      const i = aheadVenue[k]!;
      const t = aheadToken[k]!;
      if (t !== NOT_SHARED && !this.isFirstMatchingToken(i, t, word)) continue;
      const key = this.matchKey(i, q);
      if (key > 0) visitor.visit(i, key);
    }
  }

  /**
   * The query word, other than the rarest, with the fewest postings, when marking its venues
   * costs less than what the marks spare. Without a window: its postings at most MARK_RATIO
   * times the rarest's, or up to MARK_GAIN times when a sample says enough candidates lack
   * it (see MARK_GAIN). With one (find's names-then-distance plan), only the rarest word's
   * postings in the window are candidates, however many it has elsewhere: the sample then
   * counts the postings in the window that lack the word, whatever the ratio.
   */
  private secondRarest(q: PreparedNameQuery, cells: Uint32Array | null, window: CellWindow | null): PreparedWord | null {
    const rarest = q.words[q.rarest]!;
    let best: PreparedWord | null = null;
    for (let w = 0; w < q.words.length; w++) {
      const word = q.words[w]!;
      if (w !== q.rarest && (best === null || word.postings < best.postings)) best = word;
    }
    if (best === null) return null;
    const ratio = best.postings / rarest.postings;
    // A typo word's postings are not one contiguous run to sample: the ratio alone decides.
    if (rarest.typo !== null) return ratio <= MARK_RATIO ? best : null;
    if (ratio <= MARK_RATIO && window === null) return best;
    if (ratio >= MARK_GAIN) return null;
    return ratio < MARK_GAIN * this.sampledSpareShare(rarest, best, ratio, cells, window) ? best : null;
  }

  /**
   * The share (0..1) of MARK_SAMPLES postings, evenly spread over `rarest`'s (a prefix range:
   * one contiguous run of postings), that the marks would pass over: in the window (when one
   * is given), and whose venue has no word that `other` matches. Stops at 0 when the samples
   * in the window are too few for the marks to pay at `ratio` (the venues' words unread).
   */
  private sampledSpareShare(rarest: PreparedWord, other: PreparedWord, ratio: number, cells: Uint32Array | null, window: CellWindow | null): number {
    const from = this.postStart[rarest.lo]!;
    const span = this.postStart[rarest.hi]! - from;
    const samples = Math.min(MARK_SAMPLES, span);
    if (samples === 0) return 0;
    const inWindow = (p: number): boolean => cells === null || window === null || window.has(cells[p]!);
    const sample = (k: number): number => from + Math.floor((k * span) / samples);
    if (window !== null) {
      let candidates = 0;
      for (let k = 0; k < samples; k++) if (inWindow(sample(k))) candidates++;
      if (ratio >= (MARK_GAIN * candidates) / samples) return 0;
    }
    const { postVenue, venueStart, venueTok } = this;
    let spared = 0;
    for (let k = 0; k < samples; k++) {
      const p = sample(k);
      if (!inWindow(p)) continue;
      const i = postVenue[p]!;
      let found = false;
      for (let j = venueStart[i]!, end = venueStart[i + 1]!; j < end && !found; j++) found = wordQuality(other, venueTok[j]!) > 0;
      if (!found) spared++;
    }
    return spared / samples;
  }

  /** Sets the bit of every venue having one of `word`'s tokens, in a bit set kept per index (all clear between calls). */
  private markVenues(word: PreparedWord): Uint32Array {
    const marks = (this.marks ??= new Uint32Array((this.size + 31) >>> 5));
    const { postStart, postVenue } = this;
    const mark = (t: number): void => {
      for (let p = postStart[t]!, end = postStart[t + 1]!; p < end; p++) {
        const i = postVenue[p]!;
        marks[i >>> 5] = marks[i >>> 5]! | (1 << (i & 31));
      }
    };
    if (word.typo !== null) for (let k = 0; k < word.typo.length; k++) mark(word.typo[k]!);
    else for (let t = word.lo; t < word.hi; t++) mark(t);
    return marks;
  }

  /** Clears what {@link markVenues} set for `word` (whole 32-bit words: no other bit is set then), or the whole bit set when that costs less (CLEAR_ALL_WORDS_PER_POSTING). */
  private unmarkVenues(word: PreparedWord): void {
    const marks = this.marks!;
    if (word.postings * CLEAR_ALL_WORDS_PER_POSTING >= marks.length) {
      marks.fill(0);
      return;
    }
    const { postStart, postVenue } = this;
    const lo = word.typo !== null ? 0 : word.lo;
    const hi = word.typo !== null ? word.typo.length : word.hi;
    for (let k = lo; k < hi; k++) {
      const t = word.typo !== null ? word.typo[k]! : k;
      for (let p = postStart[t]!, end = postStart[t + 1]!; p < end; p++) marks[postVenue[p]! >>> 5] = 0;
    }
  }

  /**
   * One-word fast path: every posting of the word's tokens matches, and its key (same
   * value as matchKey) comes from postInfo without reading the venue's words. A venue can
   * occur under two of the word's tokens only if it has two words with the same first
   * letter (prefix-range tokens share their first letters, and typo tokens share the typed
   * word's first letter); the postings of those are flagged INFO_SHARES, and when the word
   * has several tokens, such a venue's best quality and lead flag are gathered over its
   * tokens in `sharedBest` and it is visited once, after the tokens (visitShared): the key
   * is matchKey's, as one word's key is the best quality over the name's words plus the
   * lead bonus, whichever token holds the lead word. A word of one token (a whole word no
   * other word extends, as "coffee" often is) has none of them: its key is the posting's,
   * whatever the name's other words. `cells`/`window` as in forEachMatch (a venue's
   * postings share its cell, so a venue is in the window under every token or none).
   */
  private forEachSingleWordMatch(word: PreparedWord, visitor: MatchVisitor, cells: Uint32Array | null, window: CellWindow | null): void {
    const shares = (word.typo !== null ? word.typo.length : word.hi - word.lo) > 1 ? INFO_SHARES : 0;
    if (shares !== 0) this.sharedBest ??= new Uint8Array(this.size);
    this.sharedCount = 0;
    try {
      if (word.typo !== null) {
        for (let k = 0; k < word.typo.length; k++) this.visitTokenFast(word.typo[k]!, tokenQuality(word, word.typo[k]!), shares, visitor, cells, window);
      } else {
        for (let t = word.lo; t < word.hi; t++) this.visitTokenFast(t, t === word.exact ? MATCH_EXACT : MATCH_PREFIX, shares, visitor, cells, window);
      }
      this.visitShared(visitor);
    } finally {
      this.clearShared();
    }
  }

  /** `shares`: INFO_SHARES when the word has several tokens (postings so flagged are gathered, not visited), else 0. */
  private visitTokenFast(t: number, quality: number, shares: number, visitor: MatchVisitor, cells: Uint32Array | null, window: CellWindow | null): void {
    const { postStart, postVenue, postInfo } = this;
    if (cells !== null && window !== null) {
      // Same loop behind the cell test, kept apart so the loop without a window stays as lean.
      const { rowLo, rowHi, colLo, colHi } = window;
      for (let p = postStart[t]!, end = postStart[t + 1]!; p < end; p++) {
        const cell = cells[p]!;
        const row = cell >>> 16;
        const col = cell & 0xffff;
        if (row < rowLo || row > rowHi || col < colLo || col > colHi) continue;
        this.visitPosting(p, quality, shares, visitor, postVenue, postInfo);
      }
      return;
    }
    for (let p = postStart[t]!, end = postStart[t + 1]!; p < end; p++) this.visitPosting(p, quality, shares, visitor, postVenue, postInfo);
  }

  /** One posting of the one-word fast path: its venue visited with its key, or gathered when flagged (see forEachSingleWordMatch). */
  private visitPosting(p: number, quality: number, shares: number, visitor: MatchVisitor, postVenue: Uint32Array, postInfo: Uint8Array): void {
    const info = postInfo[p]!;
    if ((info & shares) !== 0) {
      this.gatherShared(p, quality, info);
      return;
    }
    const score = quality + ((info & INFO_LEAD) !== 0 ? 1 : 0);
    visitor.visit(postVenue[p]!, relevanceKey(score, info & MAX_COUNTED_WORDS));
  }

  /** Folds flagged posting p (of a token matched with `quality`) into its venue's sharedBest; the venue's first such posting is listed. */
  private gatherShared(p: number, quality: number, info: number): void {
    const best = this.sharedBest!;
    const i = this.postVenue[p]!;
    const seen = best[i]!;
    if (seen === 0) {
      if (this.sharedCount === this.sharedPostings.length) {
        const grown = new Uint32Array(this.sharedPostings.length * 2);
        grown.set(this.sharedPostings);
        this.sharedPostings = grown;
      }
      this.sharedPostings[this.sharedCount++] = p;
    }
    const bestQuality = Math.max(seen & SHARED_QUALITY, quality);
    best[i] = bestQuality | (seen & SHARED_LEAD) | ((info & INFO_LEAD) !== 0 ? SHARED_LEAD : 0);
  }

  /** Visits each gathered venue once with its key (the word count from its listed posting: every posting of a venue holds the same). */
  private visitShared(visitor: MatchVisitor): void {
    const best = this.sharedBest;
    if (best === null) return;
    const { sharedPostings, postVenue, postInfo } = this;
    for (let k = 0, n = this.sharedCount; k < n; k++) {
      const p = sharedPostings[k]!;
      const i = postVenue[p]!;
      const seen = best[i]!;
      const score = (seen & SHARED_QUALITY) + ((seen & SHARED_LEAD) !== 0 ? 1 : 0);
      visitor.visit(i, relevanceKey(score, postInfo[p]! & MAX_COUNTED_WORDS));
    }
  }

  /** Clears what gatherShared set (also when a visitor threw), so sharedBest is all 0 between calls. */
  private clearShared(): void {
    const best = this.sharedBest;
    if (best !== null) {
      const { sharedPostings, postVenue } = this;
      for (let k = 0, n = this.sharedCount; k < n; k++) best[postVenue[sharedPostings[k]!]!] = 0;
    }
    this.sharedCount = 0;
  }

  /**
   * Whether `t` is the smallest of venue i's tokens that `word` matches. The word's tokens
   * are enumerated in ascending order (a prefix range, or the ascending typo ids), so a venue
   * under several of them is visited once, at this one. Only called for postings flagged
   * INFO_SHARES (the name has another word with the same first letter): no other venue can
   * be under two of the word's tokens, as those all share the word's first letter. It reads
   * the venue's words, which matchKey reads next, rather than a per-venue stamp array (one
   * random memory access fewer per candidate).
   */
  private isFirstMatchingToken(i: number, t: number, word: PreparedWord): boolean {
    const venueTok = this.venueTok;
    for (let k = this.venueStart[i]!, end = this.venueStart[i + 1]!; k < end; k++) {
      const u = venueTok[k]!;
      if (u < t && wordQuality(word, u) > 0) return false;
    }
    return true;
  }
}

/** The relevance key (see matchKey) of a match with `score` (summed qualities and lead bonus) in a name of `words` words (at most MAX_COUNTED_WORDS). */
function relevanceKey(score: number, words: number): number {
  return score * 64 + (MAX_COUNTED_WORDS - words);
}

/** Quality of dictionary word `t` for a query word: exact, prefix, typo or 0. */
function wordQuality(word: PreparedWord, t: number): number {
  if (t >= word.lo && t < word.hi) return t === word.exact ? MATCH_EXACT : MATCH_PREFIX;
  if (word.typo !== null && sortedHas(word.typo, t)) return MATCH_TYPO;
  return 0;
}

/** Quality of a token of the word's `typo` list (a widened word's list holds its prefix range too). */
function tokenQuality(word: PreparedWord, t: number): number {
  if (t >= word.lo && t < word.hi) return t === word.exact ? MATCH_EXACT : MATCH_PREFIX;
  return MATCH_TYPO;
}

/** A query's words as matched: normalised, filler words dropped when others remain, each once ("red red" means "red"). */
function queryWords(query: string, texts: readonly string[] = nameTokens(query)): string[] {
  const significant = texts.filter((w) => !OPTIONAL_QUERY_WORDS.has(w));
  return [...new Set(significant.length > 0 ? significant : texts)];
}

function sortedHas(a: Int32Array, x: number): boolean {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const v = a[mid]!;
    if (v === x) return true;
    if (v < x) lo = mid + 1;
    else hi = mid;
  }
  return false;
}

/**
 * 1 for each dictionary word in OPTIONAL_QUERY_WORDS ("the", "of", ...), else 0: each of
 * those few words looked up in the sorted dictionary (not the dictionary's words hashed one
 * by one: a restored index's hundreds of thousands of fresh strings, at 1M venues).
 */
function optionalTokens(tokens: readonly string[]): Uint8Array {
  const optional = new Uint8Array(tokens.length);
  for (const w of OPTIONAL_QUERY_WORDS) {
    const t = lowerBound(tokens, w);
    if (t < tokens.length && tokens[t] === w) optional[t] = 1;
  }
  return optional;
}

/** First index of the sorted (code-unit order) `tokens` whose token is >= s. */
function lowerBound(tokens: readonly string[], s: string): number {
  let lo = 0;
  let hi = tokens.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (tokens[mid]! < s) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Position in venueTok of the name's lead word: the first, or the second after a filler ("The"). */
function leadPosition(optionalToken: Uint8Array, venueTok: Uint32Array, start: number, end: number): number {
  return end - start > 1 && optionalToken[venueTok[start]!] === 1 ? start + 1 : start;
}

/** Sorts distinct words by code unit (prefix queries become contiguous id ranges); `rank[i]`: word i's id. */
export function sortedTokens(words: readonly string[]): { tokens: string[]; rank: Uint32Array } {
  const order = words.map((_, i) => i).sort((a, b) => (words[a]! < words[b]! ? -1 : 1));
  const rank = new Uint32Array(order.length);
  for (let r = 0; r < order.length; r++) rank[order[r]!] = r;
  return { tokens: order.map((i) => words[i]!), rank };
}

/** The postings of a forward index (NameIndex's layout), filled in venue order (so ascending). */
function postings(
  tokens: readonly string[],
  venueStart: Uint32Array,
  venueTok: Uint32Array,
): { postStart: Uint32Array; postVenue: Uint32Array; postInfo: Uint8Array; optionalToken: Uint8Array } {
  const n = venueStart.length - 1;
  const optionalToken = optionalTokens(tokens);
  // Postings: count each (venue, token) once, then fill in venue order (so ascending).
  const T = tokens.length;
  const postStart = new Uint32Array(T + 1);
  const lastVenue = new Int32Array(T).fill(-1);
  for (let i = 0; i < n; i++) {
    for (let k = venueStart[i]!; k < venueStart[i + 1]!; k++) {
      const t = venueTok[k]!;
      if (lastVenue[t] !== i) {
        lastVenue[t] = i;
        postStart[t + 1]!++;
      }
    }
  }
  for (let t = 0; t < T; t++) postStart[t + 1]! += postStart[t]!;
  const fill = postStart.slice(0, T);
  const postVenue = new Uint32Array(postStart[T]!);
  const postInfo = new Uint8Array(postStart[T]!);
  const firstLetter = new Uint16Array(T);
  for (let t = 0; t < T; t++) firstLetter[t] = tokens[t]!.charCodeAt(0);
  lastVenue.fill(-1);
  for (let i = 0; i < n; i++) {
    const start = venueStart[i]!;
    const end = venueStart[i + 1]!;
    const count = Math.min(end - start, MAX_COUNTED_WORDS);
    const lead = leadPosition(optionalToken, venueTok, start, end);
    for (let k = start; k < end; k++) {
      const t = venueTok[k]!;
      if (lastVenue[t] === i) continue;
      lastVenue[t] = i;
      let shares = 0;
      for (let j = start; j < end; j++) {
        if (j !== k && venueTok[j] !== t && firstLetter[venueTok[j]!] === firstLetter[t]) shares = INFO_SHARES;
      }
      // the lead flag is set when the word occurs at the lead position (its first occurrence may be later)
      let isLead = 0;
      for (let j = start; j < end; j++) if (venueTok[j] === t && j === lead) isLead = INFO_LEAD;
      postInfo[fill[t]!] = isLead | shares | count;
      postVenue[fill[t]!++] = i;
    }
  }
  return { postStart, postVenue, postInfo, optionalToken };
}
