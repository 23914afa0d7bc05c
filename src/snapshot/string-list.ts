/**
 * A list of strings as two snapshot sections (find's name dictionary: a few hundred thousand
 * words at 1M venues), so that a restore neither parses JSON for it nor has to make all the
 * strings in one go:
 * - `text`: the strings one after the other, UTF-8;
 * - `ends`: string k ends at UTF-16 code unit `ends[k]` of the decoded text (it starts where
 *   string k - 1 ends, or at 0).
 * Decoding is one UTF-8 decode of the whole text, then one `slice` per string. Offsets in code
 * units survive the UTF-8 round trip: a well-formed string decodes to its own code units,
 * and an unpaired surrogate (one unit) comes back as U+FFFD (one unit). When the text is all
 * ASCII (bench data, most real names once normalised), a byte is a code unit: each string
 * is decoded from its own bytes, and no string of the whole text is made (at 1M venues that
 * decode was one step of ~4 ms in a compaction's swap, against ~1 ms for 15,000 strings).
 */
import { isAscii } from 'node:buffer';

export interface EncodedStrings {
  readonly ends: Uint32Array;
  readonly text: Uint8Array;
}

export function encodeStrings(list: readonly string[]): EncodedStrings {
  const ends = new Uint32Array(list.length);
  let at = 0;
  for (let k = 0; k < list.length; k++) {
    at += list[k]!.length;
    ends[k] = at;
  }
  return { ends, text: Buffer.from(list.join(''), 'utf8') };
}

/**
 * Decodes an encoded list in steps (`next(count)`), so that a thread serving queries can make
 * the strings between them; `decodeStrings` does it in one go. Throws RangeError when the
 * sections do not fit together (an end before the one before it, or not at the text's end).
 */
export class StringListDecoder {
  /** The whole text decoded, or null when it is ASCII (then each string is read from `bytes`). */
  private readonly joined: string | null;
  private readonly bytes: Buffer;
  private readonly ends: Uint32Array;
  private readonly out: string[];
  private done = 0;
  /** Strings to reuse (sorted in code-unit order, as the list is), and the next one to compare. */
  private readonly previous: readonly string[];
  private nextPrevious = 0;

  /**
   * `previous`: an older version of the same sorted list (the running engine's dictionary,
   * in a compaction's swap). A string equal to one of them is that string, not a new copy:
   * compared in place, so the strings the lists share are not allocated again (a compaction
   * adds or drops few of the dictionary's words: 60,012 at 1M bench venues). New strings made
   * on the query thread survive its next young-generation collections, which copy them
   * (twice: within the young generation, then out of it); in a `--trace-gc-nvp` trace of a
   * swap that copying was the query loop's largest gap (walk-through 33).
   */
  constructor(encoded: EncodedStrings, previous: readonly string[] = []) {
    this.previous = previous;
    this.ends = encoded.ends;
    const t = encoded.text;
    this.bytes = Buffer.from(t.buffer, t.byteOffset, t.byteLength);
    this.joined = isAscii(this.bytes) ? null : this.bytes.toString('utf8');
    const units = this.joined === null ? this.bytes.length : this.joined.length;
    const last = this.ends.length === 0 ? 0 : this.ends[this.ends.length - 1]!;
    if (last !== units) throw new RangeError(`the strings end at ${last}, their text is ${units} code units`);
    this.out = new Array<string>(this.ends.length);
  }

  /** Strings decoded so far, of {@link count}. */
  get decoded(): number {
    return this.done;
  }

  get count(): number {
    return this.ends.length;
  }

  /** Decodes up to `count` more strings; true once all are. */
  next(count: number): boolean {
    const { ends, joined, bytes, out } = this;
    const stop = Math.min(ends.length, this.done + count);
    let start = this.done === 0 ? 0 : ends[this.done - 1]!;
    const previous = this.previous;
    let p = this.nextPrevious;
    for (let k = this.done; k < stop; k++) {
      const end = ends[k]!;
      if (end < start) throw new RangeError(`string ${k} ends at ${end}, before it starts (${start})`);
      let order = -1;
      while (p < previous.length && (order = this.compare(previous[p]!, start, end)) < 0) p++;
      if (p < previous.length && order === 0) out[k] = previous[p++]!;
      else out[k] = joined === null ? bytes.toString('latin1', start, end) : joined.slice(start, end);
      start = end;
    }
    this.nextPrevious = p;
    this.done = stop;
    return stop === ends.length;
  }

  /** `s` against the string in code units [start, end) of the text: negative, 0 or positive, in code-unit order. */
  private compare(s: string, start: number, end: number): number {
    const { joined, bytes } = this;
    const length = end - start;
    const common = Math.min(s.length, length);
    for (let i = 0; i < common; i++) {
      const d = s.charCodeAt(i) - (joined === null ? bytes[start + i]! : joined.charCodeAt(start + i));
      if (d !== 0) return d;
    }
    return s.length - length;
  }

  /** The decoded list (all strings decoded first if they are not yet). */
  result(): string[] {
    this.next(this.ends.length);
    return this.out;
  }
}

export function decodeStrings(encoded: EncodedStrings): string[] {
  return new StringListDecoder(encoded).result();
}
