import type { VenueRecord } from '../schema/venue.js';
import type { DataWords } from '../search/search-vocabulary.js';
import { normalizeWord } from '../store/vocabulary.js';

/**
 * The data words of a changing record set (what a store built from it would hold in
 * genreSpellings, terms and vibes, in normal form), kept as counts of venues per word so
 * that a venue's removal drops a word exactly when no other venue has it.
 * Invariant: every count is the number of current venues that use the word (> 0).
 */
export class LiveWords {
  private readonly genres = new Map<string, number>();
  private readonly terms = new Map<string, number>();
  private readonly vibes = new Map<string, number>();
  /** Raw spelling -> normal form (normalizeWord is a chain of regexes; data words repeat). */
  private readonly normal = new Map<string, string>();

  /** Counts `records` (the initial set). */
  constructor(records: Iterable<VenueRecord> = []) {
    for (const r of records) this.add(r);
  }

  add(r: VenueRecord): void {
    this.count(r, 1);
  }

  remove(r: VenueRecord): void {
    this.count(r, -1);
  }

  /** The words now present, for SearchVocabulary. */
  words(): DataWords {
    return { genres: [...this.genres.keys()], terms: [...this.terms.keys()], vibes: [...this.vibes.keys()] };
  }

  private count(r: VenueRecord, by: 1 | -1): void {
    const genres = new Set<string>();
    if (r.primaryGenre !== undefined) genres.add(this.norm(r.primaryGenre));
    for (const g of r.additionalGenres ?? []) genres.add(this.norm(g));
    const terms = new Set(genres);
    for (const f of r.establishmentFlags ?? []) terms.add(this.norm(f));
    const vibes = new Set<string>();
    for (const v of r.vibes ?? []) vibes.add(this.norm(v));
    bump(this.genres, genres, by);
    bump(this.terms, terms, by);
    bump(this.vibes, vibes, by);
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

function bump(counts: Map<string, number>, words: Set<string>, by: 1 | -1): void {
  for (const w of words) {
    const n = (counts.get(w) ?? 0) + by;
    if (n > 0) counts.set(w, n);
    else counts.delete(w);
  }
}
