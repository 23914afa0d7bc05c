/**
 * Memory for what a store build allocates (its columns, the compact records' blocks, its
 * scratch rows), taken from SharedArrayBuffers rather than ArrayBuffers. Nothing here is
 * shared with another thread: only the accounting differs.
 *
 * Why: V8 counts an ArrayBuffer's bytes as the isolate's external memory, and each time
 * that grows by 64 MB since the last full collection it starts one (a mark-compact of the
 * whole heap). A build at 1M venues allocates about 200 MB of arrays while the caller's
 * records, about 900 MB of objects, are all alive: two or three full collections of ~0.7 s
 * each that free nothing (measured: 2 of 4 s of createEngine at 1M). A SharedArrayBuffer's
 * bytes are not counted per isolate, so a build starts none; the buffers are freed as
 * usual when their arrays are collected.
 */

type TypedArrayOf<T> = { new (buffer: SharedArrayBuffer, byteOffset?: number, length?: number): T; readonly BYTES_PER_ELEMENT: number };

/** A zero-filled typed array of `length` elements over a buffer of its own that starts no collection. */
export function buildArray<T>(Type: TypedArrayOf<T>, length: number): T {
  return new Type(new SharedArrayBuffer(length * Type.BYTES_PER_ELEMENT));
}

/** A zero-filled Buffer of `bytes` bytes over a buffer of its own that starts no collection. */
export function buildBuffer(bytes: number): Buffer {
  return Buffer.from(new SharedArrayBuffer(bytes));
}

/** The first `length` elements of `a`, copied into a buildArray of their own. */
export function buildCopy<T extends Uint8Array | Uint16Array | Uint32Array | Float64Array>(a: T, length: number): T {
  const out = buildArray(a.constructor as unknown as TypedArrayOf<T>, length);
  (out as unknown as Uint8Array).set((a as unknown as Uint8Array).subarray(0, length));
  return out;
}
