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

  constructor(encoded: EncodedStrings) {
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
    for (let k = this.done; k < stop; k++) {
      const end = ends[k]!;
      if (end < start) throw new RangeError(`string ${k} ends at ${end}, before it starts (${start})`);
      out[k] = joined === null ? bytes.toString('latin1', start, end) : joined.slice(start, end);
      start = end;
    }
    this.done = stop;
    return stop === ends.length;
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
