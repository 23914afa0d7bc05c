// sortByString (the store's id order) against the comparator sort on the same keys: the
// keys in sorted order must be the same sequence. Keys stress what a code-unit radix sort
// can get wrong: shared prefixes longer than one chunk, a key that is a prefix of another,
// empty keys, repeats, NUL and U+FFFF, surrogate pairs against U+E000..U+FFFF (where UTF-16
// order differs from code point order), and lone surrogates.
import { describe, expect, it } from 'vitest';
import { sortByString } from '../../src/store/sort-by-string.js';
import { prng } from '../support/oracle.js';

const UNITS = ['a', 'b', 'z', '0', '9', '-', '\u0000', '\uffff', '\ue000', 'é', '🍺', '\ud800', '\udfff'];

function randomKeys(seed: number, n: number): string[] {
  const rnd = prng(seed);
  const prefixes = ['', 'osm-node-', 'b', 'venue/2026/', 'x'.repeat(40)];
  return Array.from({ length: n }, () => {
    const length = Math.floor(rnd() * rnd() * 14);
    let key = prefixes[Math.floor(rnd() * prefixes.length)]!;
    for (let k = 0; k < length; k++) key += UNITS[Math.floor(rnd() * UNITS.length)]!;
    return key;
  });
}

/** The keys in the order given, as the comparator sort would put them. */
function expectSorted(keys: readonly string[], order: Uint32Array): void {
  const oracle = [...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  expect(Array.from(order, (i) => keys[i]!)).toEqual(oracle);
  expect([...order].sort((a, b) => a - b)).toEqual(keys.map((_, i) => i));
}

describe('sortByString', () => {
  it.each([0, 1, 2, 17, 1000, 30_000])('orders %i random keys as the comparator sort does', (n) => {
    const keys = randomKeys(n + 1, n);
    const order = Uint32Array.from(keys, (_, i) => i);
    expectSorted(keys, sortByString(keys, order));
  });

  it('orders ids that differ only after a long shared prefix, given in any order', () => {
    const keys = Array.from({ length: 5000 }, (_, i) => `osm-node-${(i * 7919) % 5000}`);
    const order = Uint32Array.from(keys, (_, i) => i).reverse();
    expectSorted(keys, sortByString(keys, order));
  });

  it('gives the same order when its depth budget runs out (the comparator sort takes over)', () => {
    const keys = randomKeys(7, 5000);
    for (const budget of [0, 1, 3]) expectSorted(keys, sortByString(keys, Uint32Array.from(keys, (_, i) => i), budget));
  });
});
