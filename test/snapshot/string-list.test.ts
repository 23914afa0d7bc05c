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

  it('ends that do not fit the text are refused', () => {
    const { ends, text } = encodeStrings(['ab', 'cd']);
    expect(() => new StringListDecoder({ ends: Uint32Array.of(2, 5), text })).toThrow(/the strings end at 5, their text is 4 code units/);
    expect(() => new StringListDecoder({ ends: Uint32Array.of(3, 1, 4), text }).result()).toThrow(/string 1 ends at 1, before it starts \(3\)/);
    expect(ends.length).toBe(2);
  });
});
