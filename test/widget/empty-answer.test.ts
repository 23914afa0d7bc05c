/**
 * The widget's words for a search that finds nothing (src/widget/page/empty-answer.ts), a
 * pure function: the service's smallest feasible radius as a sentence and an offer, the
 * `lat_lon_swapped` hint passed through. Expected strings are written out by hand.
 */
import { describe, expect, it } from 'vitest';
import { describeEmptyAnswer, offerWords } from '../../src/widget/page/empty-answer.js';

const swapped = { code: 'lat_lon_swapped' as const, message: 'nothing was found around lat -0.12, lon 51.5, where there is no venue within about a degree; there are venues around lat 51.5, lon -0.12: were lat and lon swapped?' };

describe('describeEmptyAnswer (issue 32)', () => {
  it('meet-up with smallestFeasibleMaxDistance: says the radius that would find something and offers it', () => {
    expect(describeEmptyAnswer({ radius: 1000, smallestFeasibleMaxDistance: 14623 }, 'meet')).toEqual({
      words: 'No venues found with a radius of 1,000 m; a radius of 14,623 m would find at least one.',
      offerMeters: 14623,
    });
    expect(offerWords(14623)).toBe('Search with a radius of 14,623 m');
  });

  it('meet-up without it: nothing within the largest radius either, and no offer', () => {
    expect(describeEmptyAnswer({ radius: 300 }, 'meet')).toEqual({
      words: 'No venues found with a radius of 300 m, and none would be found with these needs up to the largest radius, 50,000 m.',
      offerMeters: undefined,
    });
  });

  it('the lat_lon_swapped hint is shown after the sentence, in meet-up and route modes', () => {
    expect(describeEmptyAnswer({ radius: 1000, hint: swapped }, 'meet').words).toBe(
      `No venues found with a radius of 1,000 m, and none would be found with these needs up to the largest radius, 50,000 m. The service notes: ${swapped.message}`,
    );
    expect(describeEmptyAnswer({ radius: 500, hint: swapped }, 'route')).toEqual({ words: `No venues found within 500 m of the route. The service notes: ${swapped.message}`, offerMeters: undefined });
  });

  it('"Independent venues only" asked (audit 67c F2): without a radius that helps, the words name the unknown chain status; with one, the radius is offered as before', () => {
    const because = '"Independent venues only" counts only venues known not to be part of a chain, and the venues here are chains or their chain status is unknown. Untick it to see them.';
    expect(describeEmptyAnswer({ radius: 1000 }, 'meet', true)).toEqual({ words: `No venues found within 50,000 m with these needs. ${because}`, offerMeters: undefined });
    expect(describeEmptyAnswer({ radius: 500 }, 'route', true)).toEqual({ words: `No venues found within 500 m of the route with these needs. ${because}`, offerMeters: undefined });
    expect(describeEmptyAnswer({ radius: 1000, smallestFeasibleMaxDistance: 2300 }, 'meet', true)).toEqual({
      words: 'No venues found with a radius of 1,000 m; a radius of 2,300 m would find at least one.',
      offerMeters: 2300,
    });
  });
});
