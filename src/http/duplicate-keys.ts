/**
 * A key given twice in one object of a JSON body. JSON.parse keeps the last value silently
 * (RFC 8259 leaves the outcome to each parser), so `{"limit": 5, "limit": 500}` was answered
 * for 500, while a proxy or a client library reading the first saw 5 (audit 71e F2). The body
 * is refused instead, naming the key's place, as a query parameter given twice is.
 */

/** An open object or array while the text is walked: its place and what it has seen so far. */
interface Frame {
  /** The dotted place (`locations.0`), as schema errors name fields; '' for the body itself. */
  readonly place: string;
  /** An object's keys so far (decoded); undefined for an array. */
  readonly keys: Set<string> | undefined;
  /** An object: the key whose value comes next, or undefined while a key is awaited. An array: unused. */
  key: string | undefined;
  /** An array: the index of the element that comes next. */
  index: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;

/** Whether the quote at `at` is escaped: an odd number of backslashes right before it. */
function isEscaped(text: string, at: number): boolean {
  let backslashes = 0;
  while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes++;
  return backslashes % 2 === 1;
}

function childPlace(parent: string, name: string | number): string {
  return parent === '' ? String(name) : `${parent}.${name}`;
}

/**
 * The place (`locations.0.lat`) of the first key, in the text's order, that its object has
 * already had, or undefined when every object's keys differ. Keys are compared decoded
 * (`"a"` and `"\u0061"` are one key). `text` must be valid JSON (parsed once already): only
 * its structure is read. Walked with a stack of its own: a body may nest deeper than the
 * call stack.
 */
export function duplicateKeyPlace(text: string): string | undefined {
  const stack: Frame[] = [];
  const placeOfNextValue = (): string => {
    const top = stack[stack.length - 1];
    if (top === undefined) return '';
    return top.keys !== undefined ? childPlace(top.place, top.key!) : childPlace(top.place, top.index);
  };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // a string: to its closing quote, the first one not escaped (found by indexOf: a long
      // string is skipped at memchr's speed, not a character at a time)
      let end = text.indexOf('"', i + 1);
      while (isEscaped(text, end)) end = text.indexOf('"', end + 1);
      const top = stack[stack.length - 1];
      if (top?.keys !== undefined && top.key === undefined) {
        const raw = text.slice(i + 1, end);
        const key = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
        if (top.keys.has(key)) return childPlace(top.place, key);
        top.keys.add(key);
        top.key = key;
      }
      i = end;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      stack.push({ place: placeOfNextValue(), keys: c === OPEN_OBJECT ? new Set() : undefined, key: undefined, index: 0 });
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      stack.pop();
    } else if (c === COMMA) {
      const top = stack[stack.length - 1]!;
      if (top.keys !== undefined) top.key = undefined;
      else top.index++;
    }
  }
  return undefined;
}
