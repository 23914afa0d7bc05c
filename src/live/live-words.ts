import type { VenueRecord } from '../schema/venue.js';
import type { DataWords } from '../search/search-vocabulary.js';
import type { VenueStore } from '../store/venue-store.js';
import { normalizeWord } from '../store/vocabulary.js';

/**
 * The data words of a changing record set (what a store built from it would hold in
 * genreSpellings, terms and vibes, in normal form), kept as counts of venues per word so
 * that a venue's removal drops a word exactly when no other venue has it.
 *
 * Term and vibe counts of the base come from its columns (no record is read). Whether a
 * word is a genre (primaryGenre or additionalGenres) is not in the columns for additional
 * genres, so a base genre word is assumed present until a venue using it as a genre goes;
 * its exact count is then asked of `countGenres` (over the state before the change; all
 * such words of a batch in one call) and kept up to date from there.
 * Invariant: a known count is the number of current venues that use the word (> 0).
 */
export class LiveWords {
  private readonly genres = new Map<string, number>();
  /** Base genre words whose count is not known yet (present: some base venue has each). */
  private readonly genresUncounted = new Set<string>();
  private readonly terms = new Map<string, number>();
  private readonly vibes = new Map<string, number>();
  /** Raw spelling -> normal form (normalizeWord is a chain of regexes; data words repeat). */
  private readonly normal = new Map<string, string>();
  private readonly countGenres: (words: ReadonlySet<string>) => Map<string, number>;
  /** One record's words while {@link count} counts them. */
  private readonly scratch: string[] = [];

  /** The words of `base`'s venues; `countGenres(words)`: current venues using each word as a genre. */
  constructor(base: VenueStore, countGenres: (words: ReadonlySet<string>) => Map<string, number>) {
    this.countGenres = countGenres;
    countRows(base.termStart, base.termCodes, base.terms.words, this.terms);
    countRows(base.vibeStart, base.vibeCodes, base.vibes.words, this.vibes);
    for (const g of base.genreSpellings) this.genresUncounted.add(this.norm(g));
  }

  add(r: VenueRecord): void {
    this.count(r, 1);
  }

  /** Removes venues' words; call before they leave the state `countGenres` sees. */
  removeAll(records: readonly VenueRecord[]): void {
    const uncounted = new Set<string>();
    for (const r of records) for (const g of this.genreWords(r)) if (this.genresUncounted.has(g)) uncounted.add(g);
    if (uncounted.size > 0) {
      for (const [g, n] of this.countGenres(uncounted)) {
        this.genresUncounted.delete(g);
        if (n > 0) this.genres.set(g, n);
      }
    }
    for (const r of records) this.count(r, -1);
  }

  /** The words now present, for SearchVocabulary. */
  words(): DataWords {
    return { genres: [...this.genres.keys(), ...this.genresUncounted], terms: [...this.terms.keys()], vibes: [...this.vibes.keys()] };
  }

  /** The normal forms of a record's genre words (primary and additional), each once. */
  private genreWords(r: VenueRecord): Set<string> {
    const genres = new Set<string>();
    if (r.primaryGenre !== undefined) genres.add(this.norm(r.primaryGenre));
    for (const g of r.additionalGenres ?? []) genres.add(this.norm(g));
    return genres;
  }

  /**
   * Counts a record's words in (by 1) or out (by -1): its genres (primary, additional) as
   * genres and terms, its establishment flags as terms, its vibes as vibes, each word once.
   * Per record, a few words: kept in a reused array (Sets cost ~2 us a record here).
   */
  private count(r: VenueRecord, by: 1 | -1): void {
    const words = this.scratch;
    words.length = 0;
    if (r.primaryGenre !== undefined) words.push(this.norm(r.primaryGenre));
    const additional = r.additionalGenres;
    if (additional != null) for (let m = 0; m < additional.length; m++) pushNew(words, this.norm(additional[m]!));
    // An uncounted word is present still; it is counted exactly when one of its venues goes.
    for (let m = 0; m < words.length; m++) if (!this.genresUncounted.has(words[m]!)) bump(this.genres, words[m]!, by);
    const flags = r.establishmentFlags;
    if (flags != null) for (let m = 0; m < flags.length; m++) pushNew(words, this.norm(flags[m]!));
    for (let m = 0; m < words.length; m++) bump(this.terms, words[m]!, by);
    words.length = 0;
    const vibes = r.vibes;
    if (vibes != null) for (let m = 0; m < vibes.length; m++) pushNew(words, this.norm(vibes[m]!));
    for (let m = 0; m < words.length; m++) bump(this.vibes, words[m]!, by);
  }

  private norm(word: string): string {
    let n = this.normal.get(word);
    if (n === undefined) {
      n = normalizeWord(word);
      this.normal.set(word, n);
    }
    return n;
  }
}

/** Adds, per word, the venues whose row (CSR `start`/`codes`, codes distinct per row) holds it. */
function countRows(start: Uint32Array, codes: Uint16Array, words: readonly string[], into: Map<string, number>): void {
  const per = new Uint32Array(words.length);
  const end = start[start.length - 1] ?? 0;
  for (let k = 0; k < end; k++) per[codes[k]!]!++;
  for (let c = 0; c < words.length; c++) if (per[c]! > 0) into.set(words[c]!, (into.get(words[c]!) ?? 0) + per[c]!);
}

function bump(counts: Map<string, number>, word: string, by: 1 | -1): void {
  const n = (counts.get(word) ?? 0) + by;
  if (n > 0) counts.set(word, n);
  else counts.delete(word);
}

/** Appends `word` unless `words` holds it (a record's few words). */
function pushNew(words: string[], word: string): void {
  if (!words.includes(word)) words.push(word);
}
