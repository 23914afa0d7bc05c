import { editDistance, typoBudget } from './prefix-edit-distance.js';

/**
 * The edits a suggestion may be from an unknown word: 1 up to 7 letters (also under 4, where
 * find allows none: a suggestion only offers, it matches nothing), 2 from 8.
 */
export function suggestionBudget(length: number): number {
  return Math.max(1, typoBudget(length));
}

/**
 * The `candidates` whose `formOf` (default: the candidate itself) is within
 * {@link suggestionBudget} edits of `word` (swapped adjacent letters count as one), nearest
 * first, then in string order, at most `limit`; a candidate equal to `word` is not offered.
 * For error messages ("did you mean"), not a hot path.
 */
export function closeSpellings(word: string, candidates: Iterable<string>, limit: number, formOf: (candidate: string) => string = (c) => c): string[] {
  const max = suggestionBudget(word.length);
  const found: Array<{ spelling: string; edits: number }> = [];
  for (const c of candidates) {
    const form = formOf(c);
    if (form === word) continue;
    const edits = editDistance(word, form, max);
    if (edits <= max) found.push({ spelling: c, edits });
  }
  found.sort((a, b) => a.edits - b.edits || (a.spelling < b.spelling ? -1 : a.spelling > b.spelling ? 1 : 0));
  return found.slice(0, limit).map((f) => f.spelling);
}
