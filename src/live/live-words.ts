import type { VenueRecord } from '../schema/venue.js';
import type { DataWords } from '../search/search-vocabulary.js';
import { NO_GENRE, type VenueStore } from '../store/venue-store.js';
import { PickedFields } from '../store/picked-fields.js';
import { MAX_VOCABULARY_WORDS, normalizeWord, tooManyWords, type VocabularyField } from '../store/vocabulary.js';

/**
 * The data words of a changing record set (what a store built from it would hold in
 * genreSpellings, terms and vibes, in normal form), kept as counts of venues per word so
 * that a venue's removal drops a word exactly when no other venue has it.
 *
 * Term and vibe counts come from the stores' rows (the base's at the start, each batch's
 * run's, the removed venues' rows in their sides): no record is read or built, and the word
 * maps are touched once per distinct word of a batch. Whether a word is a genre
 * (primaryGenre or additionalGenres) is not in the columns for additional genres: the base's
 * genre counts come with it (VenueStore.genreCounts, counted at its build and kept in its
 * snapshot). A base without them (a snapshot written before they were) has each genre word
 * assumed present until a venue using it as a genre goes; its exact count is then asked of
 * `countGenres` (over the state before the change; all such words of a batch in one call;
 * at 1M venues ~150 ms for common words, on the thread that applies the change) and kept
 * up to date from there.
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
  /** One venue's genre words while they are counted. */
  private readonly scratch: string[] = [];
  /** A removed venue's additional genres, read from its bytes. */
  private readonly pickedGenres = new PickedFields(['additionalGenres']);

  /** The words of `base`'s venues; `countGenres(words)`: current venues using each word as a genre. */
  constructor(base: VenueStore, countGenres: (words: ReadonlySet<string>) => Map<string, number>) {
    this.countGenres = countGenres;
    countRows(base.termStart, base.termCodes, base.terms.words, null, 1, this.terms);
    countRows(base.vibeStart, base.vibeCodes, base.vibes.words, null, 1, this.vibes);
    if (base.genreCounts !== null) for (const [g, n] of base.genreCounts) this.genres.set(g, n);
    else for (const g of base.genreSpellings) this.genresUncounted.add(this.norm(g));
  }

  /**
   * The venues using each genre word now (a copy), when every count is known: the base had
   * its counts (VenueStore.genreCounts), or each of its genre words was counted since. Else
   * null.
   */
  exactGenreCounts(): Map<string, number> | null {
    return this.genresUncounted.size === 0 ? new Map(this.genres) : null;
  }

  /**
   * Counts in a batch's venues: `store` is the batch's run, built over `records` (its terms
   * and vibes are read from the columns, its genres from the records).
   */
  add(store: VenueStore, records: readonly VenueRecord[]): void {
    countRows(store.termStart, store.termCodes, store.terms.words, null, 1, this.terms);
    countRows(store.vibeStart, store.vibeCodes, store.vibes.words, null, 1, this.vibes);
    const words = this.scratch;
    for (const r of records) {
      words.length = 0;
      if (r.primaryGenre !== undefined) words.push(this.norm(r.primaryGenre));
      const additional = r.additionalGenres;
      if (additional != null) for (let m = 0; m < additional.length; m++) pushNew(words, this.norm(additional[m]!));
      // An uncounted word is present still; it is counted exactly when one of its venues goes.
      for (let m = 0; m < words.length; m++) if (!this.genresUncounted.has(words[m]!)) bump(this.genres, words[m]!, 1);
    }
    words.length = 0;
  }

  /**
   * Counts out venues of the sides' stores (each group: a store and dense indices in it).
   * Call before they leave the state `countGenres` sees. Terms and vibes are read from the
   * columns; genres from the primaryGenre column and each venue's additionalGenres, picked
   * from its bytes (no record is built).
   */
  removeAll(groups: ReadonlyArray<{ readonly store: VenueStore; readonly indices: readonly number[] }>): void {
    // Every removed venue's genre words (normal forms, each once per venue), in one list.
    const genreWords: string[] = [];
    const words = this.scratch;
    const picked = this.pickedGenres;
    for (const { store, indices } of groups) {
      const { primaryGenre } = store;
      const termWords = store.terms.words;
      for (const i of indices) {
        words.length = 0;
        if (primaryGenre[i] !== NO_GENRE) words.push(termWords[primaryGenre[i]!]!);
        store.pick(i, picked);
        const additional = picked.values[0] as string[] | undefined;
        if (additional !== undefined) for (let m = 0; m < additional.length; m++) pushNew(words, this.norm(additional[m]!));
        for (let m = 0; m < words.length; m++) genreWords.push(words[m]!);
      }
    }
    words.length = 0;
    const uncounted = new Set<string>();
    for (const g of genreWords) if (this.genresUncounted.has(g)) uncounted.add(g);
    if (uncounted.size > 0) {
      for (const [g, n] of this.countGenres(uncounted)) {
        this.genresUncounted.delete(g);
        if (n > 0) this.genres.set(g, n);
      }
    }
    for (const g of genreWords) if (!this.genresUncounted.has(g)) bump(this.genres, g, -1);
    for (const { store, indices } of groups) {
      countRows(store.termStart, store.termCodes, store.terms.words, indices, -1, this.terms);
      countRows(store.vibeStart, store.vibeCodes, store.vibes.words, indices, -1, this.vibes);
    }
  }

  /**
   * Throws VenueSearchError (`limit_exceeded`) when removing the venues of `groups` and adding
   * those of `added` (a batch's store) would leave more than MAX_VOCABULARY_WORDS distinct
   * words in the terms or the vibes: a compaction or a snapshot of that state could not be
   * built. Changes nothing. Invariant kept by upsert: the current words never pass the limit.
   */
  checkLimit(groups: ReadonlyArray<{ readonly store: VenueStore; readonly indices: readonly number[] }>, added: VenueStore): void {
    const rows = (st: VenueStore, field: VocabularyField) => (field === 'terms' ? ([st.termStart, st.termCodes, st.terms.words] as const) : ([st.vibeStart, st.vibeCodes, st.vibes.words] as const));
    for (const field of ['terms', 'vibes'] as const) {
      const counts = field === 'terms' ? this.terms : this.vibes;
      const gone = new Map<string, number>();
      for (const { store, indices } of groups) countRows(...rows(store, field), indices, 1, gone);
      let n = counts.size;
      for (const [w, k] of gone) if (counts.get(w) === k) n--;
      for (const w of rows(added, field)[2]) if ((counts.get(w) ?? 0) - (gone.get(w) ?? 0) === 0) n++;
      if (n > MAX_VOCABULARY_WORDS) throw tooManyWords(field, n, 'this upsert: the current venues');
    }
  }

  /** The words now present, for SearchVocabulary. */
  words(): DataWords {
    return { genres: [...this.genres.keys(), ...this.genresUncounted], terms: [...this.terms.keys()], vibes: [...this.vibes.keys()] };
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

/**
 * Adds `by` times, per word, the venues whose row (CSR `start`/`codes`, codes distinct per
 * row) holds it: the venues `indices`, or every venue (null).
 */
function countRows(start: Uint32Array, codes: Uint16Array, words: readonly string[], indices: readonly number[] | null, by: 1 | -1, into: Map<string, number>): void {
  const per = new Uint32Array(words.length);
  if (indices === null) {
    const end = start[start.length - 1] ?? 0;
    for (let k = 0; k < end; k++) per[codes[k]!]!++;
  } else {
    for (const i of indices) for (let k = start[i]!, end = start[i + 1]!; k < end; k++) per[codes[k]!]!++;
  }
  for (let c = 0; c < words.length; c++) if (per[c]! > 0) bump(into, words[c]!, by * per[c]!);
}

/** Adds `delta` venues to a word's count (dropping the word at 0). */
function bump(counts: Map<string, number>, word: string, delta: number): void {
  const n = (counts.get(word) ?? 0) + delta;
  if (n > 0) counts.set(word, n);
  else counts.delete(word);
}

/** Appends `word` unless `words` holds it (a record's few words). */
function pushNew(words: string[], word: string): void {
  if (!words.includes(word)) words.push(word);
}
