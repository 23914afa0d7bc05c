import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NameIndex } from '../../src/find/name-index.js';

// Oracle of the documented relevance key, on plain strings (no dictionary, no postings):
// per query word the best of exact 3 / prefix 2 / typo 1 over the name's words (all must match),
// +1 when the first query word matches the name's first significant word, then in the low
// 6 bits 63 for a name equal to the whole query as typed (fillers and repeats included) when
// matching dropped some of its words, else 63 - min(word count, 63).
const FILLER = new Set(['the', 'a', 'an', 'of', 'and', 'ye']);
/** Textbook optimal-string-alignment distance. */
function osa(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  return d[a.length]![b.length]!;
}
/**
 * Quality of name word x for query word w; typo only when no word of any name starts with w,
 * or always when `widened` (find's second try, docs/find.md).
 */
function quality(x: string, w: string, dictionary: readonly string[], widened = false): number {
  if (x === w) return 3;
  if (x.startsWith(w)) return 2;
  if ((!widened && dictionary.some((y) => y.startsWith(w))) || w.length < 4 || x[0] !== w[0]) return 0;
  const budget = w.length < 8 ? 1 : 2;
  for (let j = 0; j <= x.length; j++) if (osa(w, x.slice(0, j)) <= budget) return 1;
  return 0;
}
function significantWords(query: string[]): string[] {
  const q = query.filter((w) => !FILLER.has(w));
  return [...new Set(q.length === 0 ? query : q)];
}
function oracleKey(name: string[], query: string[], dictionary: readonly string[] = name, widened = false): number {
  const q = significantWords(query);
  let score = 0;
  for (const w of q) {
    let best = 0;
    for (const x of name) best = Math.max(best, quality(x, w, dictionary, widened));
    if (best === 0) return 0;
    score += best;
  }
  const lead = name.length > 1 && FILLER.has(name[0]!) ? name[1]! : name[0];
  if (lead !== undefined && quality(lead, q[0]!, dictionary, widened) > 0) score += 1;
  if (q.length < query.length && name.join(' ') === query.join(' ')) return score * 64 + 63;
  return score * 64 + 63 - Math.min(name.length, 63);
}

const VOCAB = ['the', 'red', 'redhill', 'reds', 'lion', 'lions', 'li', 'of', 'rose', 'crown', 'cr', 'and'];

/**
 * forEachMatch visits every venue whose oracle key is not 0, once, with that key, and no
 * other; matchKey gives the same key for every venue.
 */
function expectOracleVisits(index: NameIndex, q: ReturnType<NameIndex['prepare']>, names: string[][], query: string[], dictionary: string[], widened: boolean): void {
  const got = new Map<number, number>();
  index.forEachMatch(q, {
    visit: (i, key) => {
      expect(got.has(i)).toBe(false);
      got.set(i, key);
    },
  });
  for (let i = 0; i < names.length; i++) {
    const expected = oracleKey(names[i]!, query, dictionary, widened);
    expect(got.get(i) ?? 0).toBe(expected);
    expect(index.matchKey(i, q)).toBe(expected);
  }
}

/** expectOracleVisits on an index of `names` for `query`, twice on one index: an enumeration's scratch state must not leak into the next. */
function expectOracleVisitsTwice(names: string[][], query: string[]): void {
  const index = new NameIndex(names.map((n) => n.join(' ')));
  const q = index.prepare(query.join(' '));
  const dictionary = names.flat();
  for (let round = 0; round < 2; round++) expectOracleVisits(index, q, names, query, dictionary, false);
}

describe('NameIndex against a brute-force oracle (random names over a small vocabulary)', () => {
  it('forEachMatch visits exactly the matching venues, once each, with the oracle key (one-word fast path and multi-word path)', () => {
    const name = fc.array(fc.constantFrom(...VOCAB), { minLength: 1, maxLength: 5 });
    const queryWord = fc.constantFrom('r', 're', 'red', 'redh', 'l', 'li', 'lion', 'lino', 'the', 'c', 'cr', 'crown', 'crwon', 'rsoe', 'rose', 'of');
    fc.assert(
      fc.property(fc.array(name, { minLength: 0, maxLength: 40 }), fc.array(queryWord, { minLength: 1, maxLength: 3 }), expectOracleVisitsTwice),
      { numRuns: 1500 },
    );
  });

  it('many candidates (several of forEachMatch\'s read-ahead batches, and a batch cut anywhere): the same visits as the oracle', () => {
    const name = fc.array(fc.constantFrom(...VOCAB), { minLength: 1, maxLength: 4 });
    const queryWord = fc.constantFrom('r', 're', 'red', 'l', 'li', 'lion', 'the', 'c', 'cr', 'rose', 'crwon');
    fc.assert(
      fc.property(fc.array(name, { minLength: 30, maxLength: 300 }), fc.array(queryWord, { minLength: 2, maxLength: 3 }), expectOracleVisitsTwice),
      { numRuns: 300 },
    );
  });

  it('widened (find\'s second try): every 4+ letter word also matches within its typo budget, with the oracle key; widens() says when that can change the matches', () => {
    const name = fc.array(fc.constantFrom(...VOCAB, 'lino', 'linos', 'roses'), { minLength: 1, maxLength: 5 });
    const queryWord = fc.constantFrom('r', 'red', 'redh', 'lion', 'lino', 'lions', 'crown', 'crwon', 'rose', 'rsoe', 'the', 'of');
    fc.assert(
      fc.property(fc.array(name, { minLength: 0, maxLength: 40 }), fc.array(queryWord, { minLength: 1, maxLength: 3 }), (names, query) => {
        const index = new NameIndex(names.map((n) => n.join(' ')));
        const dictionary = names.flat();
        const q = index.prepare(query.join(' '), undefined, true);
        expectOracleVisits(index, q, names, query, dictionary, true);
        // anyMatch (as typed, and widened): some name has a non-zero oracle key
        expect(index.anyMatch(q, null)).toBe(names.some((nm) => oracleKey(nm, query, dictionary, true) > 0));
        expect(index.anyMatch(index.prepare(query.join(' ')), null)).toBe(names.some((nm) => oracleKey(nm, query, dictionary) > 0));
        // widens: some significant word of 4+ letters starts a dictionary word
        const widens = significantWords(query).some((w) => w.length >= 4 && dictionary.some((y) => y.startsWith(w)));
        expect(index.widens(query.join(' '))).toBe(widens);
        if (!widens) for (let i = 0; i < names.length; i++) expect(oracleKey(names[i]!, query, dictionary, true)).toBe(oracleKey(names[i]!, query, dictionary));
      }),
      { numRuns: 1500 },
    );
  });

  it('named cases: "The The" and "Red Redhill" (words sharing a first letter) rank as the oracle says', () => {
    const names = ['The The', 'Red Redhill', 'Redhill Red', 'The Red Lion', 'Red Lion'];
    const index = new NameIndex(names);
    for (const query of ['the', 'red', 'redh', 'red li']) {
      const q = index.prepare(query);
      const got = new Map<number, number>();
      index.forEachMatch(q, { visit: (i, key) => got.set(i, key) });
      const dictionary = names.flatMap((n) => n.toLowerCase().split(' '));
      names.forEach((n, i) => expect(got.get(i) ?? 0).toBe(oracleKey(n.toLowerCase().split(' '), query.split(' '), dictionary)));
    }
  });

  it('empty index: nothing matches and prepare finds no candidates', () => {
    const index = new NameIndex([]);
    const q = index.prepare('red');
    expect(q.rarest).toBe(-1);
    let n = 0;
    index.forEachMatch(q, { visit: () => n++ });
    expect(n).toBe(0);
  });
});
