// travelObject builds a result's `travel` object by literal when its keys are location
// indices. Oracle: the plain construction (an empty object, each key assigned in order,
// "__proto__" defined), compared as own property descriptors, key order, prototype and JSON.
import { describe, expect, it } from 'vitest';
import { leadingIndexKeys, travelObject } from '../../src/search/travel-object.js';
import type { TravelEstimate } from '../../src/schema/search.js';
import { prng } from '../support/oracle.js';

function plainTravel(keys: readonly string[], estimates: readonly TravelEstimate[], count: number): Record<string, TravelEstimate> {
  const travel: Record<string, TravelEstimate> = {};
  for (let k = 0; k < count; k++) Object.defineProperty(travel, keys[k]!, { value: estimates[k], enumerable: true, writable: true, configurable: true });
  return travel;
}

function expectSameObject(actual: object, expected: object): void {
  expect(Object.getPrototypeOf(actual)).toBe(Object.prototype);
  expect(Reflect.ownKeys(actual)).toEqual(Reflect.ownKeys(expected));
  expect(Object.getOwnPropertyDescriptors(actual)).toEqual(Object.getOwnPropertyDescriptors(expected));
  expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
}

describe('travelObject', () => {
  it('counts the leading keys that are their own index', () => {
    expect(leadingIndexKeys([])).toBe(0);
    expect(leadingIndexKeys(['0', '1', '2'])).toBe(3);
    expect(leadingIndexKeys(['0', 'me', '2'])).toBe(1);
    expect(leadingIndexKeys(['me', '1'])).toBe(0);
    expect(leadingIndexKeys(['00', '1'])).toBe(0);
    expect(leadingIndexKeys(['0', '1', '1'])).toBe(2);
  });

  it('builds the object the plain construction builds, for index keys, labels and mixtures, at every count', () => {
    const rnd = prng(5);
    const names = ['me', 'you', '__proto__', 'constructor', '7', '01', 'toString', 'Ann', ''];
    for (let trial = 0; trial < 2000; trial++) {
      const n = 1 + Math.floor(rnd() * 7);
      const keys: string[] = [];
      const used = new Set<string>();
      for (let i = 0; i < n; i++) {
        // mostly the location's index (no label), sometimes a label (validation keeps keys unique)
        let key = rnd() < 0.7 ? String(i) : names[Math.floor(rnd() * names.length)]!;
        if (used.has(key)) key = `label ${i}`;
        used.add(key);
        keys.push(key);
      }
      const estimates = keys.map((_, k) => ({ distanceMeters: Math.round(rnd() * 50_000) / 10, durationMinutes: k + rnd() }));
      const count = 1 + Math.floor(rnd() * n);
      expectSameObject(travelObject(keys, leadingIndexKeys(keys), estimates, count), plainTravel(keys, estimates, count));
    }
  });
});
