/**
 * The engine snapshot file: everything an engine needs, warmed (the store's columns, the
 * kd-tree, the opening-hours tables, the records in the engine's compact form, find's name
 * index and density grid, the learnt places), laid out so that loading is reading each
 * section into its own typed array: no parsing of records, no index building.
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
 * little-endian). Records are the engine's compact blocks (src/store/compact-records.ts)
 * one after the other in section `records` (the header lists each block's byte length);
 * `recordStarts` holds each record's global start as the engine holds it (block number
 * times 2^32 plus the offset in its block). No section depends on the file being read whole:
 * the reader reads each into its own buffer, so a file (10M venues: several GB) may exceed
 * what one Buffer can hold.
 *
 * Find's name dictionary (a few hundred thousand words at 1M venues) is not in the header:
 * it is sections `nameTokenEnds` and `nameTokenText` (string-list.ts), so that restoring a
 * snapshot parses no large JSON and can make those strings in steps (a live service's swap).
 *
 * Format history: 1 held records, ids and names as UTF-8 JSON blobs and no name index;
 * 2 held the name dictionary in the header (`nameTokens`).
 */
import type { LearntPlacesJson } from '../places/learnt-places.js';

export const MAGIC = 'VSNAPSHT';

/** Whether `bytes` (a file's first bytes) start like a snapshot. */
export function isSnapshot(bytes: Uint8Array): boolean {
  return bytes.length >= MAGIC.length && Buffer.from(bytes.subarray(0, MAGIC.length)).toString('latin1') === MAGIC;
}
/** Bumped whenever the layout or the meaning of a section changes. */
export const FORMAT_VERSION = 3;
export const PREFIX_BYTES = 24;

export type SectionType = 'Float64Array' | 'Uint32Array' | 'Uint16Array' | 'Uint8Array';

export interface SectionEntry {
  /** Byte offset from the start of the file (a multiple of 8). */
  readonly offset: number;
  readonly byteLength: number;
  readonly type: SectionType;
}

/** Every section a snapshot holds, by name (the derived ones below aside). */
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
  'recordStarts',
  'records',
  'namePostStart',
  'namePostVenue',
  'namePostInfo',
  'nameVenueStart',
  'nameVenueTok',
  'nameTokenEnds',
  'nameTokenText',
  'densityCells',
  'densityCounts',
] as const;

/**
 * Sections derived from the others, which a restored engine would otherwise build at its
 * warm() or first query (at 1M venues about 0.1 s of CPU in a profile of serve's start; read
 * instead, they took about 30 ms off the load: docs/snapshots.md): the search's bit
 * columns (`termBits`, `vibeBits`: a venue's term and vibe codes as bits, BulkScorer) and its
 * grid of occupied cells (`occupiedCells`, OccupiedCells), and find's cell of each name
 * posting (`namePostCells`, posting-cells.ts). Written since 2026-12-03; a file without them
 * (same format) is read as before, and they are derived at warm().
 */
export const DERIVED_SECTION_NAMES = ['termBits', 'vibeBits', 'occupiedCells', 'namePostCells'] as const;
export type DerivedSectionName = (typeof DERIVED_SECTION_NAMES)[number];
export type SectionName = (typeof SECTION_NAMES)[number] | DerivedSectionName;

export interface SnapshotHeader {
  /** SHA-256 of the rest of the header, its first key (src/snapshot/header-digest.ts); absent in files written before 2026-11-30. */
  readonly headerDigest?: string;
  readonly format: typeof FORMAT_VERSION;
  readonly littleEndian: boolean;
  /** Number of venues. */
  readonly size: number;
  /** The venue-search version that wrote the file (informative). */
  readonly writtenBy: string;
  readonly termWords: readonly string[];
  readonly vibeWords: readonly string[];
  readonly genreSpellings: readonly string[];
  /**
   * [genre word, venues using it as a genre] for each genre word (VenueStore.genreCounts).
   * Absent (files written before 2026-11-29, same format): not known, and live data counts
   * a genre word the first time one of its venues goes.
   */
  readonly genreCounts?: ReadonlyArray<readonly [string, number]>;
  readonly zoneNames: readonly string[];
  /** Places learnt from the addresses with the default options; null when not saved. */
  readonly learntPlaces: LearntPlacesJson | null;
  /** Byte length of each compact-record block, in order; they fill section `records`. */
  readonly recordBlocks: readonly number[];
  /** The compact records' dictionaries (CompactRecordParts). */
  readonly recordWords: readonly string[];
  readonly recordShapes: readonly (readonly string[])[];
  readonly recordShared: readonly unknown[];
  /** Records the blocks hold, those of no venue any more included (CompactRecordParts.recordsWritten); absent: `size`. */
  readonly recordsWritten?: number;
  /**
   * True when every kd-tree leaf's points rise in latitude (SpatialIndex.leavesSortedByLat),
   * as in every tree this version builds: the reader then skips checking it, a pass over
   * every point (a compaction's swap had ~4 ms of it in one step at 1M). Absent (files
   * written before it) or false: checked at load.
   */
  readonly leavesSortedByLat?: boolean;
  /**
   * True when kd-tree position k holds venue k (SpatialIndex.positionsAreVenues), as in every
   * tree this version builds: the reader then skips finding it, a pass over every id (1 to
   * 16 ms at 1M, the slow end when that pass runs unoptimised, as a compaction's swap runs
   * it once per compaction). Absent (files written before 2026-12-03) or false: found at
   * the first search.
   */
  readonly positionsAreVenues?: boolean;
  /**
   * The rules find's name index was built by (NAME_TOKENS_VERSION, src/find/normalize-name.ts).
   * Absent (files written before 2026-11-29, version 1) or another version: the index is not
   * restored but built from the records at the first find, so that names and queries are cut
   * into words by the same rules.
   */
  readonly nameRules?: number;
  /**
   * The zone corrections the venues' zones were derived by (ZONE_RULES_VERSION,
   * src/hours/zone-corrections.ts). Absent (files written before 2026-12-01) or another
   * version: the zones of the venues in the corrected areas are derived again at load.
   */
  readonly zoneRules?: number;
  readonly sections: Readonly<Record<(typeof SECTION_NAMES)[number], SectionEntry>> & Readonly<Partial<Record<DerivedSectionName, SectionEntry>>>;
}

export const IS_LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

export function align8(n: number): number {
  return Math.ceil(n / 8) * 8;
}
