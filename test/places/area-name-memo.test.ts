/**
 * placesNamedIn against places worked out by hand; and with a pass's memo of address parts
 * (AreaNameMemo) it names the same places, spelt the same, as without it: over the fixtures'
 * addresses, each read twice through one memo (the second time every part is a repeat).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { placesNamedIn, type AreaNameMemo } from '../../src/places/learnt-places.js';

const addresses = readFileSync(new URL('../../fixtures/venues.ndjson', import.meta.url), 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => (JSON.parse(line) as { formattedAddress?: string }).formattedAddress)
  .filter((a): a is string => a !== undefined);

/** A memo that counts the parts it answers. */
class CountingMemo extends Map<string, { readonly area: string; readonly key: string } | null> implements AreaNameMemo {
  answered = 0;
  override get(part: string) {
    const named = super.get(part);
    if (named !== undefined) this.answered++;
    return named;
  }
}

describe('AreaNameMemo', () => {
  it('changes nothing placesNamedIn names, for first and repeated parts', () => {
    const memo = new CountingMemo();
    const extra = ['1 High St, St. Albans, AL1 1AA', '2 Mill Lane, Saint Albans AL1 1AB', '3 Rue, Covent Garden, London WC2H 3WI', '4 Road, 12 Estate, Leeds'];
    const all = [...addresses, ...extra];
    const plain = all.map((a) => placesNamedIn(a));
    const partsAfterFirst = all.reduce((n, a) => n + a.split(',').length - 1, 0);
    for (let round = 0; round < 2; round++) {
      memo.answered = 0;
      expect(all.map((a) => placesNamedIn(a, memo))).toEqual(plain);
      // the second time, the memo answers for every part
      if (round === 1) expect(memo.answered).toBe(partsAfterFirst);
      else expect(memo.answered).toBeLessThan(partsAfterFirst);
    }
    // the fixtures name areas, and their parts repeat (the memo is used, not only filled)
    expect(plain.flat().filter((p) => p.kind === 'area').length).toBeGreaterThan(1000);
  });

  it('names the postcodes and areas of an address as worked out by hand', () => {
    expect(placesNamedIn('12 Neal Street, Covent Garden, London WC2H 9PW', new Map())).toEqual([
      { kind: 'postcode', key: 'WC2H', spelling: 'WC2H' },
      { kind: 'postcode', key: 'WC2H 9PW', spelling: 'WC2H 9PW' },
      { kind: 'area', key: 'covent garden', spelling: 'Covent Garden' },
      { kind: 'area', key: 'london', spelling: 'London' },
    ]);
    // a street part is not an area; "Saint" is keyed "st"
    expect(placesNamedIn('The Pub, Mill Lane, Saint Albans', new Map())).toEqual([{ kind: 'area', key: 'st albans', spelling: 'Saint Albans' }]);
  });
});
