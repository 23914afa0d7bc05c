/**
 * The one error class of the engine. `code` is stable and machine-readable; the HTTP
 * adapter owns the single table that maps each code to a status. Messages name the
 * field and the bad value so a caller can fix the input without reading our source.
 */
export type VenueSearchErrorCode =
  /** A request field has a bad type, value or combination (HTTP 400). */
  | 'invalid_request'
  /** A venue record (input data) failed validation. */
  | 'invalid_venue'
  /** Input data could not be parsed at all (malformed JSON, unreadable file). */
  | 'invalid_data'
  /** Two venue records share an id. */
  | 'duplicate_id'
  /** No venue with that id (HTTP 404). */
  | 'venue_not_found'
  /** A place name the resolver does not know (HTTP 400). */
  | 'unknown_place'
  /** A limit of the engine was exceeded (too many locations, distance too large; HTTP 400). */
  | 'limit_exceeded';

export interface VenueSearchErrorDetails {
  /** The request parameter or record field at fault, as a dotted path (`mode.maxDistance`). */
  readonly param?: string;
  /** The offending value, kept for logs and tests (never a secret). */
  readonly value?: unknown;
  /** Where in an input file the problem is. */
  readonly file?: string;
  readonly line?: number;
  readonly recordId?: string;
  /** The error this one reports (a stream's own error, say), kept as the Error's `cause`. */
  readonly cause?: unknown;
}

export class VenueSearchError extends Error {
  override readonly name = 'VenueSearchError';
  readonly code: VenueSearchErrorCode;
  readonly param: string | undefined;
  readonly value: unknown;
  readonly file: string | undefined;
  readonly line: number | undefined;
  readonly recordId: string | undefined;

  constructor(code: VenueSearchErrorCode, message: string, details: VenueSearchErrorDetails = {}) {
    super(message, details.cause !== undefined ? { cause: details.cause } : undefined);
    this.code = code;
    this.param = details.param;
    this.value = details.value;
    this.file = details.file;
    this.line = details.line;
    this.recordId = details.recordId;
  }

  /**
   * How Node prints the error (`util.inspect`: an uncaught error, `console.log(err)`): its
   * stack, then its set fields with `value` described as the message does, shortened. Node's
   * own rendering printed every property in full: createEngine given readVenues' answer
   * printed thousands of records to the terminal (audit 77 final check). The symbol is
   * Node's registered one, so nothing is imported (the browser bundle shares this file).
   */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    const fields: string[] = [];
    for (const [key, field] of Object.entries(this)) if (field !== undefined && key !== 'name') fields.push(`${key}: ${describeValue(field)}`);
    const cause = this.cause instanceof Error ? `${this.cause.name}: ${this.cause.message}` : this.cause !== undefined ? describeValue(this.cause) : undefined;
    if (cause !== undefined) fields.push(`cause: ${cause}`);
    return `${this.stack ?? `${this.name}: ${this.message}`}\n  { ${fields.join(', ')} }`;
  }

  /**
   * What `JSON.stringify(err)` writes (a log line, a reject returned as JSON): `name`, `code`,
   * `message` (not an own enumerable property of an Error, so JSON left it out), then the
   * other fields that are set (`param`, `value`, `file`, `line`, `recordId`, a subclass's own:
   * UnknownPlaceError's `suggestions`). `value` only when it is small data (see
   * {@link jsonValue}): the input at fault can be megabytes (a 5 MB query), which the message
   * already shows shortened. The `cause` is left out (it may be anything, even circular).
   */
  toJSON(): VenueSearchErrorJson {
    const json: Record<string, unknown> = { name: this.name, code: this.code, message: this.message };
    for (const [key, field] of Object.entries(this)) {
      if (key === 'value') Object.assign(json, jsonValue(field));
      else if (field !== undefined && !(key in json)) json[key] = field;
    }
    return json as unknown as VenueSearchErrorJson;
  }
}

/** A {@link VenueSearchError} as JSON writes it ({@link VenueSearchError.toJSON}). */
export interface VenueSearchErrorJson {
  readonly name: 'VenueSearchError';
  readonly code: VenueSearchErrorCode;
  readonly message: string;
  readonly param?: string;
  /** Present only when at most {@link ERROR_JSON_VALUE_MAX} characters as JSON. */
  readonly value?: unknown;
  readonly file?: string;
  readonly line?: number;
  readonly recordId?: string;
  /** A subclass's own fields (UnknownPlaceError's `suggestions`). */
  readonly [field: string]: unknown;
}

/** The longest `value` (its JSON, in UTF-16 units) that an error's JSON carries; a longer one is left out. */
export const ERROR_JSON_VALUE_MAX = 256;

/**
 * `{ value }` when `value` is data JSON writes as itself (a string, a finite number, a
 * boolean, null, or a plain object or array) in at most ERROR_JSON_VALUE_MAX characters;
 * else `{}`: too long, or JSON would change it (NaN to null, a Date to a string, a Set to
 * {}) or cannot write it (undefined, a bigint, a cycle).
 */
function jsonValue(value: unknown): { value?: unknown } {
  if (typeof value === 'string') return value.length + 2 <= ERROR_JSON_VALUE_MAX && JSON.stringify(value).length <= ERROR_JSON_VALUE_MAX ? { value } : {};
  if (typeof value === 'number') return Number.isFinite(value) ? { value } : {};
  if (typeof value === 'boolean' || value === null) return { value };
  if (typeof value !== 'object') return {};
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== Array.prototype && proto !== null) return {};
  try {
    const json = JSON.stringify(value) as string | undefined;
    return json !== undefined && json.length <= ERROR_JSON_VALUE_MAX ? { value } : {};
  } catch {
    return {};
  }
}

export function isVenueSearchError(err: unknown): err is VenueSearchError {
  return err instanceof VenueSearchError;
}

/**
 * Cuts text between user-perceived characters (an emoji sequence such as a family is one).
 * Made at the first long value quoted: making it loads ICU's break rules, 15 to 30 ms that
 * every import of the package (and every command of the CLI) paid at start.
 */
let graphemes: Intl.Segmenter | null = null;

/**
 * UTF-16 units read past the cut to find the characters ending before it: a boundary depends
 * on the text just after it, never this far (the longest emoji sequences are about 35 units).
 */
const SEGMENT_LOOKAHEAD_UNITS = 64;

/**
 * The longest start of `text` of at most `units` UTF-16 units that ends between two
 * user-perceived characters. Only the start is segmented: the segmenter reads all it is given
 * (a 20 MB description took 15 s to be quoted in its refusal: audit 73d F5).
 */
function wholeCharacters(text: string, units: number): string {
  let end = 0;
  for (const { index, segment } of (graphemes ??= new Intl.Segmenter('en', { granularity: 'grapheme' })).segment(text.slice(0, units + SEGMENT_LOOKAHEAD_UNITS))) {
    if (index + segment.length > units) break;
    end = index + segment.length;
  }
  return text.slice(0, end);
}

/** Renders a value for an error message: short, unambiguous (`"abc"`, `NaN`, `undefined`). */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') {
    const s = value.length > 80 ? `${wholeCharacters(value, 77)}...` : value;
    return JSON.stringify(s);
  }
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  // JSON would show a Date as its string and a Set or a Map as {}: say what they are
  if (value instanceof Date) return `a Date (${Number.isNaN(value.getTime()) ? 'invalid' : value.toISOString()})`;
  if (value instanceof Set) return `a Set of ${value.size}`;
  if (value instanceof Map) return `a Map of ${value.size}`;
  // an iterator or a class instance: its kind, not the {} JSON shows (a generator of records, a Float64Array)
  if (typeof value === 'object' && !Array.isArray(value)) {
    const proto = Object.getPrototypeOf(value) as unknown;
    if (proto !== Object.prototype && proto !== null) {
      const tag = Object.prototype.toString.call(value).slice(8, -1);
      const kind = tag !== 'Object' ? tag : ((value as { constructor?: { name?: unknown } }).constructor?.name as string | undefined) || 'object';
      return `${/^[AEIOUaeiou]/.test(kind) ? 'an' : 'a'} ${kind}`;
    }
  }
  try {
    const json = JSON.stringify(value);
    return json.length > 80 ? `${wholeCharacters(json, 77)}...` : json;
  } catch {
    return Object.prototype.toString.call(value);
  }
}

/** Throws `invalid_request` naming `param` and its value. */
export function invalidRequest(param: string, value: unknown, expected: string): never {
  throw new VenueSearchError('invalid_request', `${param} must be ${expected}; got ${describeValue(value)}`, {
    param,
    value,
  });
}
