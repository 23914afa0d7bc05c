/**
 * The compact record format shared by its writer (compact-record-writer.ts), its builder
 * (compact-records-builder.ts) and its reader (compact-records.ts).
 *
 * Venue records held by the engine in a compact binary form, so that an engine built from
 * records never keeps the caller's objects (issue 19: ~60 bytes per lean venue here against
 * ~855 for the objects). Decoding gives a record equal to the one given, with the same keys
 * in the same order (`JSON.stringify` of both is the same text).
 *
 * Layout of record i, starting at byte `starts[i]` (block `floor(start / 2^32)`, offset
 * `start mod 2^32`; a record never spans two blocks):
 * - the id and the name as texts (see `RecordWriter.text`), read without decoding the rest
 *   (find's index, ranking ties, id lookups);
 * - the shape: a varint code of the record's key list, in the record's own key order (padded
 *   with continuation bytes to the width the builder kept for it);
 * - each key's value as a tag byte and its payload:
 *   `TEXT` a UTF-8 text; `WORD` a varint code of a vocabulary word (primaryGenre,
 *   timeZone); `WORDS` a count and word codes (additionalGenres, establishmentFlags,
 *   catersFlags, vibes); `SHARED` a varint code of a value stored once for every venue that
 *   has it (weekly opening hours: a few thousand distinct values in real data), decoded
 *   once and deep-frozen. Hours in the schema's own form (keys in schema order, `HH:MM`
 *   times) are keyed by a hash of a description built without JSON (`describeHours`); any
 *   other value of those keys by its JSON text. `POINT` the location rebuilt from the store's lat/lon columns;
 *   `TRUE`/`FALSE`; `ID`/`NAME` the header's text; `UNDEFINED`; `JSON` anything else, as
 *   JSON text.
 * Decoded records of the last `CACHE_SIZE` distinct indices asked for are kept (a page of
 * results is decoded once); they, like the frozen shared values, must not be changed:
 * every response copies what it returns.
 */
export const enum Tag {
  JSON = 0,
  TEXT = 1,
  WORD = 2,
  WORDS = 3,
  TRUE = 4,
  FALSE = 5,
  SHARED = 6,
  POINT = 7,
  ID = 8,
  NAME = 9,
  UNDEFINED = 10,
}

/** How a key's values are stored when they have the expected type (else TEXT or JSON). */
export const enum Kind {
  OTHER,
  ID,
  NAME,
  LOCATION,
  WORD,
  WORDS,
  SHARED,
}

const KEY_KINDS: ReadonlyMap<string, Kind> = new Map([
  ['id', Kind.ID],
  ['name', Kind.NAME],
  ['location', Kind.LOCATION],
  ['primaryGenre', Kind.WORD],
  ['timeZone', Kind.WORD],
  ['additionalGenres', Kind.WORDS],
  ['establishmentFlags', Kind.WORDS],
  ['catersFlags', Kind.WORDS],
  ['vibes', Kind.WORDS],
  ['regularOpeningHours', Kind.SHARED],
  ['kitchenOpeningHours', Kind.SHARED],
  ['holidayOpeningHours', Kind.SHARED],
]);

export function kindOfKey(key: string): Kind {
  return KEY_KINDS.get(key) ?? Kind.OTHER;
}

/** Bytes of a block (records are appended until one does not fit). */
export const BLOCK_BYTES = 64 * 1024 * 1024;
export const BLOCK_STRIDE = 2 ** 32;

/** Freezes `value` and everything it holds (shared values are handed to every caller). */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/**
 * A copy of JSON-safe `value` sharing no object with it, unfrozen: what a caller may change
 * (a shared value, frozen and handed to every record, copied for a record given away).
 */
export function thawedCopy<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((v: unknown) => thawedCopy(v)) as T;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = thawedCopy(v);
  return out as T;
}
