import { buildBuffer } from './build-memory.js';
import { BLOCK_BYTES, BLOCK_STRIDE } from './compact-format.js';

/** Appends records to blocks; see compact-format.ts for the layout. */
export class RecordWriter {
  readonly blocks: Buffer[] = [];
  private buf: Buffer;
  private pos = 0;
  private recordStart = 0;

  /** Bytes in the blocks retired so far. */
  private retiredBytes = 0;

  /**
   * `firstBlockBytes`: the first block's size; `nextBlockBytes(written)`: a later block's
   * size, given the bytes written so far (at most BLOCK_BYTES; the record being written
   * always fits).
   */
  constructor(
    firstBlockBytes: number,
    private readonly nextBlockBytes: (written: number) => number = () => BLOCK_BYTES,
  ) {
    this.buf = buildBuffer(firstBlockBytes);
  }

  /**
   * Takes `blocks` (another writer's, finished) as this writer's first blocks, as they are:
   * records written from now on start after them. Only before the first record.
   */
  keep(blocks: readonly Uint8Array[]): void {
    if (this.blocks.length > 0 || this.pos > 0) throw new Error('RecordWriter.keep after records were written');
    for (const b of blocks) {
      this.blocks.push(Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength));
      this.retiredBytes += b.length;
    }
  }

  /** Starts a record; returns its global start. */
  begin(): number {
    this.recordStart = this.pos;
    return this.blocks.length * BLOCK_STRIDE + this.pos;
  }

  /** Keeps `bytes` bytes of room in the record being written; returns their place in it (for {@link paddedVarintAt}). */
  reserve(bytes: number): number {
    this.ensure(bytes);
    const at = this.pos - this.recordStart;
    this.pos += bytes;
    return at;
  }

  /**
   * Writes `n` as a varint of exactly `width` bytes (continuation bits on the leading ones:
   * a padded varint reads as the same number) at place `at` of the record being written.
   */
  paddedVarintAt(at: number, n: number, width: number): void {
    if (n >= 2 ** (7 * width)) throw new RangeError(`compact records: ${n} does not fit in a ${width}-byte varint`);
    let p = this.recordStart + at;
    for (let b = 1; b < width; b++) {
      this.buf[p++] = (n & 0x7f) | 0x80;
      n >>>= 7;
    }
    this.buf[p] = n;
  }

  /** The global start of the record being written (it moves when the record moves to a new block). */
  get start(): number {
    return this.blocks.length * BLOCK_STRIDE + this.recordStart;
  }

  private ensure(bytes: number): void {
    if (this.pos + bytes <= this.buf.length) return;
    // Move the record written so far to a fresh block, so no record spans two blocks.
    const partial = this.pos - this.recordStart;
    const next = buildBuffer(Math.max(Math.min(BLOCK_BYTES, this.nextBlockBytes(this.retiredBytes + this.recordStart)), 2 * (partial + bytes)));
    this.buf.copy(next, 0, this.recordStart, this.pos);
    this.retire(this.recordStart);
    this.buf = next;
    this.pos = partial;
    this.recordStart = 0;
  }

  /**
   * Keeps the block's first `used` bytes. Its unused end is copied away only when it is
   * large (over 1 MB and over an eighth of what is used): the pages of a fresh block that were
   * never written are not resident (the kernel maps them on first write), so a copy would
   * only move the bytes, through as many freshly faulted pages (57 MB at 1M bench venues,
   * whose records came in under the builder's estimate of 64 bytes each).
   */
  private retire(used: number): void {
    let block = this.buf.subarray(0, used);
    if (this.buf.length - used > Math.max(1024 * 1024, used / 8)) {
      block = buildBuffer(used);
      this.buf.copy(block, 0, 0, used);
    }
    this.blocks.push(block);
    this.retiredBytes += used;
  }

  byte(b: number): void {
    this.ensure(1);
    this.buf[this.pos++] = b;
  }

  varint(n: number): void {
    this.ensure(5);
    const buf = this.buf;
    let pos = this.pos;
    while (n >= 0x80) {
      buf[pos++] = (n & 0x7f) | 0x80;
      n >>>= 7;
    }
    buf[pos++] = n;
    this.pos = pos;
  }

  /**
   * A text: varint `byteLength * 2 + escaped`, then its bytes: UTF-8, or, for a string with
   * an unpaired surrogate (which UTF-8 cannot hold), the UTF-8 of its JSON literal.
   */
  text(s: string): void {
    // ASCII (most ids and names) is written byte by byte; anything else by Buffer.write.
    const n = s.length;
    let ascii = n < 64;
    if (ascii) {
      for (let k = 0; k < n; k++) {
        if (s.charCodeAt(k) >= 0x80) {
          ascii = false;
          break;
        }
      }
    }
    if (ascii) {
      this.ensure(1 + n);
      const buf = this.buf;
      const at = this.pos;
      buf[at] = n * 2;
      for (let k = 0; k < n; k++) buf[at + 1 + k] = s.charCodeAt(k);
      this.pos = at + 1 + n;
      return;
    }
    const escaped = !(s as unknown as { isWellFormed(): boolean }).isWellFormed(); // ES2024, in Node 20
    const t = escaped ? JSON.stringify(s) : s;
    const bytes = Buffer.byteLength(t, 'utf8');
    this.varint(bytes * 2 + (escaped ? 1 : 0));
    this.ensure(bytes);
    this.pos += this.buf.write(t, this.pos, 'utf8');
  }

  /** A whole record's bytes as they are (begin() first): one copy, no decoding. */
  bytes(from: Buffer, start: number, end: number): void {
    const n = end - start;
    this.ensure(n);
    const buf = this.buf;
    if (n > 64) from.copy(buf, this.pos, start, end);
    else for (let k = 0; k < n; k++) buf[this.pos + k] = from[start + k]!;
    this.pos += n;
  }

  /** The text written at global position `at` (a finished record's id or name). */
  textAt(at: number): string {
    const b = Math.floor(at / BLOCK_STRIDE);
    const buf = b < this.blocks.length ? this.blocks[b]! : this.buf;
    let pos = at - b * BLOCK_STRIDE;
    let h = 0;
    for (let shift = 0; ; shift += 7) {
      const byte = buf[pos++]!;
      h += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) break;
    }
    const t = buf.toString('utf8', pos, pos + Math.floor(h / 2));
    return h % 2 === 1 ? (JSON.parse(t) as string) : t;
  }

  /** Closes the writer; returns the blocks. */
  finish(): Buffer[] {
    this.retire(this.pos);
    return this.blocks;
  }
}
