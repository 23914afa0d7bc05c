/**
 * The oracle for VenueStore.genreCounts and the live genre counts: a scan of the records.
 * Each venue counts once per genre word (its primary genre and additional genres, in the
 * vocabulary's normal form: normalizeWord defines it, and is not what these tests check).
 */
import type { VenueRecord } from '../../src/schema/venue.js';
import { normalizeWord } from '../../src/store/vocabulary.js';

/** The genre words of a record, normal forms, each once. */
export function genreWordsOf(r: VenueRecord): Set<string> {
  return new Set([r.primaryGenre, ...(r.additionalGenres ?? [])].filter((g) => g !== undefined).map((g) => normalizeWord(g)));
}

/** Venues using each genre word, by a scan of `records`; sorted by word. */
export function scanGenreCounts(records: Iterable<VenueRecord>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of records) for (const w of genreWordsOf(r)) counts.set(w, (counts.get(w) ?? 0) + 1);
  return sortedCounts(counts);
}

/** `counts` sorted by word (null stays null), for comparing maps built in different orders. */
export function sortedCounts(counts: ReadonlyMap<string, number>): Map<string, number>;
export function sortedCounts(counts: ReadonlyMap<string, number> | null): Map<string, number> | null;
export function sortedCounts(counts: ReadonlyMap<string, number> | null): Map<string, number> | null {
  return counts === null ? null : new Map([...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
