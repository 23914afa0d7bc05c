import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { prefixEditDistance, typoBudget } from '../../src/find/prefix-edit-distance.js';

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

  it('typo budget: 0 under 4 letters, 1 for 4-7, 2 from 8', () => {
    expect([3, 4, 7, 8, 12].map(typoBudget)).toEqual([0, 1, 1, 2, 2]);
  });
});
