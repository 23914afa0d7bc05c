import type { TravelEstimate } from '../schema/search.js';

/**
 * A result's `travel` object: `estimates[k]` under `keys[k]` for k in [0, count), in that
 * order (a location's label, or its index as a decimal string when it has none).
 *
 * Built once per response record, so how matters (issue 16): V8 keeps a key that reads as
 * an array index ("0", "1": a location without a label) as an element, and adding the first
 * element to an empty object takes its slow path (180 to 300 ns, measured in a bare loop,
 * against 30 to 40 ns for the same object written as a literal; built so it also serialised
 * about 25 % slower). So when the first `count` keys are "0", "1", ... (`indexKeys` of them
 * at least: {@link leadingIndexKeys}), up to four of them are built as a literal; any other
 * keys are added one by one, which is fast for names. The object is the same either way:
 * own enumerable data properties, index keys first (as any object lists them), then names
 * in order.
 */
export function travelObject(keys: readonly string[], indexKeys: number, estimates: readonly TravelEstimate[], count: number): Record<string, TravelEstimate> {
  if (count <= indexKeys) {
    switch (count) {
      case 1:
        return { 0: estimates[0]! };
      case 2:
        return { 0: estimates[0]!, 1: estimates[1]! };
      case 3:
        return { 0: estimates[0]!, 1: estimates[1]!, 2: estimates[2]! };
      case 4:
        return { 0: estimates[0]!, 1: estimates[1]!, 2: estimates[2]!, 3: estimates[3]! };
    }
  }
  const travel: Record<string, TravelEstimate> = {};
  for (let k = 0; k < count; k++) {
    const key = keys[k]!;
    const estimate = estimates[k]!;
    // A label may be any text: assigning "__proto__" would set the prototype and drop the entry.
    if (key === '__proto__') Object.defineProperty(travel, key, { value: estimate, enumerable: true, writable: true, configurable: true });
    else travel[key] = estimate;
  }
  return travel;
}

/** How many of `keys`, from the first, are their own index as a decimal string ("0", "1", ...). */
export function leadingIndexKeys(keys: readonly string[]): number {
  let k = 0;
  while (k < keys.length && keys[k] === String(k)) k++;
  return k;
}
