import type { VenueRecord } from '../schema/venue.js';
import { normalizeWord } from '../store/vocabulary.js';
import { NO_GENRE, type VenueStore } from '../store/venue-store.js';

/**
 * The genre words (normal forms, as LiveWords keeps them) of the venues of `base` not
 * hidden plus the `added` records: what foldSides takes as `genres` when changes are folded
 * straight into a new base (Engine.foldIn), without counting words batch by batch.
 * A base genre word is present when a venue left in the base has it as its primary genre
 * (the primaryGenre column: no record read) or, failing that, as an additional genre (the
 * records of the venues whose terms hold the word are read until one has it).
 */
export function currentGenres(base: VenueStore, hidden: Uint8Array, added: readonly VenueRecord[]): string[] {
  const normal = new Map<string, string>();
  const norm = (w: string): string => {
    let n = normal.get(w);
    if (n === undefined) normal.set(w, (n = normalizeWord(w)));
    return n;
  };
  const out = new Set<string>();
  for (const r of added) {
    if (r.primaryGenre !== undefined) out.add(norm(r.primaryGenre));
    for (const g of r.additionalGenres ?? []) out.add(norm(g));
  }
  const primary = new Uint8Array(base.terms.words.length);
  const { primaryGenre, termStart, termCodes } = base;
  for (let i = 0; i < base.size; i++) if (hidden[i] === 0 && primaryGenre[i] !== NO_GENRE) primary[primaryGenre[i]!] = 1;
  const unsure = new Map<number, string>();
  for (const spelling of base.genreSpellings) {
    const w = norm(spelling);
    if (out.has(w)) continue;
    const code = base.terms.lookup(w);
    if (code < 0) continue;
    if (primary[code] === 1) out.add(w);
    else unsure.set(code, w);
  }
  for (const [code, w] of unsure) {
    search: for (let i = 0; i < base.size; i++) {
      if (hidden[i] !== 0) continue;
      for (let k = termStart[i]!; k < termStart[i + 1]!; k++) {
        if (termCodes[k] !== code) continue;
        if ((base.record(i).additionalGenres ?? []).some((g) => base.terms.lookup(g) === code)) {
          out.add(w);
          break search;
        }
      }
    }
  }
  return [...out];
}
