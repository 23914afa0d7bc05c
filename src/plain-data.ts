/**
 * What a request given in-process must be made of: JSON's data (plain objects, arrays,
 * strings, numbers, booleans, null), as an HTTP body parses to. A Map, a Set, a Date or a
 * class instance given where an object is expected would pass a schema check as an object
 * with no keys, and what it holds would be silently ignored (audit 62a 7): these find it.
 */

/** An object whose prototype is Object.prototype or null (an object literal, JSON.parse's objects). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** Nesting walked at most (a search body is a few levels deep; deeper data is the schema's to refuse). */
const MAX_DEPTH = 16;

/**
 * The first object in `value` (itself included, then its items and own properties, depth
 * first) that is neither an array nor a plain object, with its path written the JavaScript
 * way from `root` (`preferences`, `locations[2]`); null when there is none.
 */
export function firstNonPlainObject(value: unknown, root: string, depth = 0): { readonly path: string; readonly value: unknown } | null {
  if (typeof value !== 'object' || value === null || depth > MAX_DEPTH) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = firstNonPlainObject(value[i], `${root}[${i}]`, depth + 1);
      if (found !== null) return found;
    }
    return null;
  }
  if (!isPlainObject(value)) return { path: root, value };
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const found = firstNonPlainObject(value[key], root === '' ? key : `${root}.${key}`, depth + 1);
    if (found !== null) return found;
  }
  return null;
}
