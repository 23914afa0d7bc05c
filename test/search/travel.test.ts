// The travel speed model (docs/search.md): straight line x 1.3, fastest of walking 4.8 km/h,
// local transport 10 min + 20 km/h, long distance 30 min + 80 km/h. Values worked by hand.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { travelMinutes } from '../../src/search/index.js';

describe('travel estimates', () => {
  it('500 m straight line: 650 m walked at 80 m/min = 8.1 min', () => {
    expect(travelMinutes(500)).toBe(8.1);
  });
  it('5 km straight line: local transport, 10 + 6.5 km at 20 km/h (19.5 min) = 29.5 min', () => {
    expect(travelMinutes(5000)).toBe(29.5);
  });
  it('100 km straight line: long distance, 30 + 130 km at 80 km/h (97.5 min) = 127.5 min', () => {
    expect(travelMinutes(100_000)).toBe(127.5);
  });
  it('zero distance takes zero minutes', () => {
    expect(travelMinutes(0)).toBe(0);
  });
  it('further never shows as quicker (monotone)', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1e6, noNaN: true }), fc.double({ min: 0, max: 1e6, noNaN: true }), (a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(travelMinutes(lo)).toBeLessThanOrEqual(travelMinutes(hi));
      }),
    );
  });
});
