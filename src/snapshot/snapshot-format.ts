/**
 * The engine snapshot file: everything an engine needs, laid out so that loading is reading
 * the file and taking typed-array views of it (no parsing of records, no index building).
 *
 *   bytes 0..7    MAGIC ("VSNAPSHT")
 *   bytes 8..15   byte offset of the header (float64, little-endian)
 *   bytes 16..23  byte length of the header (float64, little-endian)
 *   bytes 24..    the sections, each starting at a multiple of 8 bytes from the file start
 *   then          the header: UTF-8 JSON (SnapshotHeader), written last so the writer can
 *                 stream the sections without knowing their sizes in advance
 *
 * Typed arrays are stored in the machine's byte order, which the header records; a file
 * from a machine of the other order is refused (every platform Node supports today is
 * little-endian). Records, ids and names are UTF-8 blobs with Float64Array offsets
 * (`offsets[i] .. offsets[i + 1]` is venue i), so a blob may exceed 4 GiB.
 */
import type { LearntPlacesJson } from '../places/learnt-places.js';

export const MAGIC = 'VSNAPSHT';
/** Bumped whenever the layout or the meaning of a section changes. */
export const FORMAT_VERSION = 1;
export const PREFIX_BYTES = 24;

export type SectionType = 'Float64Array' | 'Uint32Array' | 'Uint16Array' | 'Uint8Array';

export interface SectionEntry {
  /** Byte offset from the start of the file (a multiple of 8). */
  readonly offset: number;
  readonly byteLength: number;
  readonly type: SectionType;
}

/** Every section a snapshot holds, by name. */
export const SECTION_NAMES = [
  'lat',
  'lon',
  'chain',
  'caters',
  'primaryGenre',
  'termStart',
  'termCodes',
  'vibeStart',
  'vibeCodes',
  'idOrder',
  'tree',
  'scheduleOf',
  'scheduleOffsets',
  'intervals',
  'zoneCodes',
  'recordOffsets',
  'records',
  'idOffsets',
  'ids',
  'nameOffsets',
  'names',
] as const;
export type SectionName = (typeof SECTION_NAMES)[number];

export interface SnapshotHeader {
  readonly format: typeof FORMAT_VERSION;
  readonly littleEndian: boolean;
  /** Number of venues. */
  readonly size: number;
  /** The venue-search version that wrote the file (informative). */
  readonly writtenBy: string;
  readonly termWords: readonly string[];
  readonly vibeWords: readonly string[];
  readonly genreSpellings: readonly string[];
  readonly zoneNames: readonly string[];
  /** Places learnt from the addresses with the default options; null when not saved. */
  readonly learntPlaces: LearntPlacesJson | null;
  readonly sections: Readonly<Record<SectionName, SectionEntry>>;
}

export const IS_LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

export function align8(n: number): number {
  return Math.ceil(n / 8) * 8;
}
