/**
 * Hostile JSON for property tests: a small JSON tree that can carry what `JSON.stringify`
 * cannot produce (NaN, Infinity, 1e400, -0 as written, integers past 2^53, duplicate and
 * `__proto__` keys), its serializer, and fast-check arbitraries of hostile strings, numbers
 * and nested values. Strings may hold unpaired surrogates (serialised as `\uD800` escapes,
 * which is valid JSON text) and control characters.
 */
import fc from 'fast-check';

export type J =
  | { readonly t: 'raw'; readonly text: string }
  | { readonly t: 'str'; readonly v: string }
  | { readonly t: 'num'; readonly v: number }
  | { readonly t: 'lit'; readonly v: 'true' | 'false' | 'null' }
  | { readonly t: 'arr'; readonly items: readonly J[] }
  | { readonly t: 'obj'; readonly entries: readonly (readonly [string, J])[] };

export function toJsonText(j: J): string {
  switch (j.t) {
    case 'raw':
      return j.text;
    case 'str':
      return JSON.stringify(j.v);
    case 'num':
      if (Object.is(j.v, -0)) return '-0';
      // NaN and +-Infinity are written as such: not JSON, the parser must refuse them
      return String(j.v);
    case 'lit':
      return j.v;
    case 'arr':
      return `[${j.items.map(toJsonText).join(',')}]`;
    case 'obj':
      return `{${j.entries.map(([k, v]) => `${JSON.stringify(k)}:${toJsonText(v)}`).join(',')}}`;
  }
}

/** A plain JSON value as a tree (for valid templates to be mutated). */
export function fromValue(value: unknown): J {
  if (value === null) return { t: 'lit', v: 'null' };
  if (typeof value === 'boolean') return { t: 'lit', v: value ? 'true' : 'false' };
  if (typeof value === 'number') return { t: 'num', v: value };
  if (typeof value === 'string') return { t: 'str', v: value };
  if (Array.isArray(value)) return { t: 'arr', items: value.map(fromValue) };
  return { t: 'obj', entries: Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, fromValue(v)] as const) };
}

/** Replaces (or adds) the value at `path`; a missing step on the way is created as an object. */
export function setAt(j: J, path: readonly (string | number)[], value: J): J {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  if (j.t === 'arr' && typeof head === 'number') {
    const items = [...j.items];
    items[head] = setAt(items[head] ?? { t: 'obj', entries: [] }, rest, value);
    return { t: 'arr', items: items.map((x) => x ?? { t: 'lit', v: 'null' }) };
  }
  const entries = j.t === 'obj' ? [...j.entries] : [];
  const key = String(head);
  const i = entries.findIndex(([k]) => k === key);
  const next = setAt(i >= 0 ? entries[i]![1] : { t: 'obj', entries: [] }, rest, value);
  if (i >= 0) entries[i] = [key, next];
  else entries.push([key, next]);
  return { t: 'obj', entries };
}

const CONTROL = fc.string({ unit: fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c)), maxLength: 20 });

/** Strings a client might send to break us. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 30 }), // any code unit sequence: unpaired surrogates included
  CONTROL,
  fc.constantFrom(
    '\uD800',
    'a\uDFFFb',
    'Cafe\u0301', // NFD of "Café"
    'Cafe\u0301 Ne\u0301ro',
    '\u0000',
    '\u202Epub',
    '__proto__',
    'constructor',
    'prototype',
    '',
    ' ',
    'POINT',
    'PATH',
    'OPEN',
    'pub',
    'coffee_shop',
    'vegan',
    '2026-03-10T12:00:00Z',
    '2026-02-30T25:61:00Z',
    '9999-12-31T23:59:59Z',
    '-271821-04-20T00:00:00Z',
    'NaN',
    'Infinity',
    '1e400',
    '-0',
    '0x10',
    '../../etc/passwd',
    '%00',
    '%',
    "'; DROP TABLE ledger; --",
  ),
  fc.constantFrom('a'.repeat(10_000), 'é'.repeat(10_000), 'e\u0301'.repeat(5_000), '\uD83D'.repeat(10_000)),
);

/** Numbers, including the ones JSON cannot carry (written raw into the text). */
export const hostileNumber: fc.Arbitrary<J> = fc.oneof(
  fc.double().map((v): J => ({ t: 'num', v })), // NaN, +-Infinity, -0, subnormals included
  fc.integer().map((v): J => ({ t: 'num', v })),
  fc.constantFrom(0, -0, 1, 90, -90, 180, -180, 90.000_000_1, -180.000_000_1, 50_000, 50_001, 10_000, 100_000, 2 ** 53 + 2, 1e308, 5e-324, -1).map(
    (v): J => ({ t: 'num', v }),
  ),
  fc.constantFrom('1e400', '-1e400', '1e-400', '-0.0', '123456789012345678901234567890', '0.' + '0'.repeat(400) + '1', '1' + '0'.repeat(400), '1E+2', '1.5e3').map(
    (text): J => ({ t: 'raw', text }),
  ),
);

const KEY = fc.oneof(fc.constantFrom('__proto__', 'constructor', 'prototype', 'polluted', 'lat', 'lon', 'mode', 'toString', 'hasOwnProperty'), hostileString);

/** Any hostile JSON value, nested up to a few levels (arrays and objects, `__proto__` keys). */
export const hostileValue: fc.Arbitrary<J> = fc.letrec<{ value: J }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileNumber,
    hostileString.map((v): J => ({ t: 'str', v })),
    fc.constantFrom<J>({ t: 'lit', v: 'true' }, { t: 'lit', v: 'false' }, { t: 'lit', v: 'null' }),
    fc.array(tie('value'), { maxLength: 4 }).map((items): J => ({ t: 'arr', items })),
    fc.array(fc.tuple(KEY, tie('value')), { maxLength: 4 }).map((entries): J => ({ t: 'obj', entries })),
  ),
})).value;

/** Each byte's form in a query string: unreserved characters as they are, the rest `%XX`. */
const ENCODED_BYTE: readonly string[] = Array.from({ length: 256 }, (_, byte) => {
  const ch = String.fromCharCode(byte);
  return /[A-Za-z0-9_.~-]/.test(ch) ? ch : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
});

/** Percent-encodes the UTF-8 bytes of `text` (lone surrogates become U+FFFD, as a browser would send). */
export function percentEncode(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) out += ENCODED_BYTE[byte]!;
  return out;
}

/** Raw query-string values: hostile strings percent-encoded, or malformed escapes sent as they are. */
export const hostileQueryValue: fc.Arbitrary<string> = fc.oneof(
  hostileString.map(percentEncode),
  fc.constantFrom('%', '%E0%A4%A', '%FF', '%C0%AF', '%ZZ', '%00', '+', '%2B', 'Infinity', 'NaN', '1e400', '-0', '0x10', '1e-400', '99999999999999999999999', ' 5', '5 ', '', '.5', '5.', '%35'),
);
