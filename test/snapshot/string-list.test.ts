import { describe, expect, it } from 'vitest';
import { decodeStrings, encodeStrings, StringListDecoder } from '../../src/snapshot/string-list.js';

describe('string lists (a snapshot section pair)', () => {
  const list = ['', 'abbey', 'café', 'zürich', '🍺', 'straße', '', 'x'.repeat(40), '東京'];

  it('round-trips ASCII, accented, astral and empty strings', () => {
    expect(decodeStrings(encodeStrings(list))).toEqual(list);
    expect(decodeStrings(encodeStrings([]))).toEqual([]);
  });

  it('the text is the UTF-8 of the strings one after the other, the ends are UTF-16 code units', () => {
    const { ends, text } = encodeStrings(['é', '🍺', 'a']);
    // hand-computed: é = C3 A9, 🍺 = F0 9F 8D BA (a surrogate pair: 2 code units), a = 61
    expect([...text]).toEqual([0xc3, 0xa9, 0xf0, 0x9f, 0x8d, 0xba, 0x61]);
    expect([...ends]).toEqual([1, 3, 4]);
  });

  it('an unpaired surrogate comes back as U+FFFD without moving the strings after it', () => {
    expect(decodeStrings(encodeStrings(['a\ud800', 'b']))).toEqual(['a\ufffd', 'b']);
  });

  it('decodes in steps to the same list', () => {
    const decoder = new StringListDecoder(encodeStrings(list));
    const seen: number[] = [];
    while (!decoder.next(2)) seen.push(decoder.decoded);
    expect(seen).toEqual([2, 4, 6, 8]);
    expect(decoder.result()).toEqual(list);
  });

  it('an all-ASCII list (decoded string by string from its bytes) round-trips, in steps too', () => {
    const ascii = ['', 'abbey', 'red lion', 'x'.repeat(40), '', "st. mary's", '~!@#{}\x7f', 'q'];
    expect(decodeStrings(encodeStrings(ascii))).toEqual(ascii);
    const decoder = new StringListDecoder(encodeStrings(ascii));
    while (!decoder.next(3));
    expect(decoder.result()).toEqual(ascii);
    // one non-ASCII byte anywhere takes the whole-text decode, with the same strings
    expect(decodeStrings(encodeStrings([...ascii, 'é']))).toEqual([...ascii, 'é']);
  });

  it('with an older list to reuse (any order, any overlap), in steps, it decodes to the same strings as without one', () => {
    // Oracle: the list itself (decoding without an older list is checked above). A seeded
    // generator; words from a small alphabet so that the lists share many, plus non-ASCII ones.
    let seed = 33;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const word = () => Array.from({ length: Math.floor(random() * 5) }, () => 'abé\ud800'[Math.floor(random() * (random() < 0.9 ? 2 : 4))]).join('');
    const codeUnitOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    for (let trial = 0; trial < 200; trial++) {
      const ascii = random() < 0.5;
      const pick = () => (ascii ? word().replace(/[^ab]/g, 'a') : word());
      const current = [...new Set(Array.from({ length: Math.floor(random() * 30) }, pick))].sort(codeUnitOrder);
      const expected = decodeStrings(encodeStrings(current)); // an unpaired surrogate comes back as U+FFFD
      const older = [...new Set([...current.filter(() => random() < 0.7), ...expected.filter(() => random() < 0.3), ...Array.from({ length: 5 }, pick)])];
      if (random() < 0.8) older.sort(codeUnitOrder);
      const decoder = new StringListDecoder(encodeStrings(current), older);
      while (!decoder.next(1 + Math.floor(random() * 4)));
      expect(decoder.result(), JSON.stringify({ current, older })).toEqual(expected);
    }
  });

  it('ends that do not fit the text are refused', () => {
    const { ends, text } = encodeStrings(['ab', 'cd']);
    expect(() => new StringListDecoder({ ends: Uint32Array.of(2, 5), text })).toThrow(/the strings end at 5, their text is 4 code units/);
    expect(() => new StringListDecoder({ ends: Uint32Array.of(3, 1, 4), text }).result()).toThrow(/string 1 ends at 1, before it starts \(3\)/);
    expect(ends.length).toBe(2);
  });
});
