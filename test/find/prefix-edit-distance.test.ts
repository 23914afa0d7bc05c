import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { editDistance, prefixEditDistance, typoBudget } from '../../src/find/prefix-edit-distance.js';

/** Oracle: textbook optimal-string-alignment distance (full matrix), minimised over all prefixes. */
function osa(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}
function oraclePrefix(typed: string, word: string, max: number): number {
  let best = Infinity;
  for (let j = 0; j <= word.length; j++) best = Math.min(best, osa(typed, word.slice(0, j)));
  return best <= max ? best : max + 1;
}

describe('prefixEditDistance', () => {
  it('named cases: wetherspon~wetherspoons 1, loin~lion 1 (transposition), lion~lion 0, abc~xyz over budget', () => {
    expect(prefixEditDistance('wetherspon', 'wetherspoons', 2)).toBe(1);
    expect(prefixEditDistance('loin', 'lion', 1)).toBe(1);
    expect(prefixEditDistance('lion', 'lion', 1)).toBe(0);
    expect(prefixEditDistance('abcd', 'wxyz', 1)).toBe(2);
    expect(prefixEditDistance('', 'abc', 1)).toBe(0);
  });

  it('equals the full-matrix oracle on random short words over a small alphabet (property)', () => {
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'd'), maxLength: 9 });
    fc.assert(
      fc.property(word, word, fc.integer({ min: 0, max: 3 }), (a, b, max) => {
        expect(prefixEditDistance(a, b, max)).toBe(oraclePrefix(a, b, max));
      }),
      { numRuns: 3000 },
    );
  });

  it('editDistance (whole words, for place suggestions): shoredich~shoreditch 1, brixotn~brixton 1 (swap), letih~leith 1, soho~shoreditch over budget', () => {
    expect(editDistance('shoredich', 'shoreditch', 2)).toBe(1);
    expect(editDistance('brixotn', 'brixton', 1)).toBe(1);
    expect(editDistance('letih', 'leith', 1)).toBe(1);
    expect(editDistance('leith', 'leith', 1)).toBe(0);
    expect(editDistance('soho', 'shoreditch', 2)).toBe(3);
    expect(editDistance('lino', 'lion', 1)).toBe(1);
    expect(editDistance('', 'ab', 2)).toBe(2);
    expect(editDistance('ab', '', 1)).toBe(2);
  });

  it('editDistance equals the full-matrix oracle on random short words over a small alphabet (property)', () => {
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'd'), maxLength: 9 });
    fc.assert(
      fc.property(word, word, fc.integer({ min: 0, max: 3 }), (a, b, max) => {
        const exact = osa(a, b);
        expect(editDistance(a, b, max)).toBe(exact <= max ? exact : max + 1);
      }),
      { numRuns: 3000 },
    );
  });

  it('typo budget: 0 under 4 letters, 1 for 4-7, 2 from 8', () => {
    expect([3, 4, 7, 8, 12].map(typoBudget)).toEqual([0, 1, 1, 2, 2]);
  });
});
