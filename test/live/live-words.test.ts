// LiveWords over a base that knows its genre counts (VenueStore.genreCounts) never reads the
// venues' bytes to count a genre word; over one that does not, it counts each word from
// them once, when one of its venues first goes. Counts are checked against a scan of the
// records left.
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine.js';
import { LiveWords } from '../../src/live/live-words.js';
import { VenueStore } from '../../src/store/venue-store.js';
import { loadFixtureVenues } from '../search/support.js';
import { scanGenreCounts as scan, sortedCounts as sorted } from '../support/genre-counts.js';

describe('LiveWords genre counts', () => {
  const records = loadFixtureVenues();
  const { store } = createEngine(records);
  // every third venue goes, the pubs among them included
  const gone = records.filter((_, k) => k % 3 === 0);
  const indices = gone.map((r) => store.indexOf(r.id));
  const left = records.filter((_, k) => k % 3 !== 0);

  it('from a base that knows them: never counted from the venues, exact after removals', () => {
    const asked: string[][] = [];
    const words = new LiveWords(store, (w) => {
      asked.push([...w]);
      return new Map();
    });
    expect(sorted(words.exactGenreCounts())).toEqual(scan(records));
    words.removeAll([{ store, indices }]);
    expect(asked).toEqual([]);
    expect(sorted(words.exactGenreCounts())).toEqual(scan(left));
    expect(new Set(words.words().genres)).toEqual(new Set(scan(left).keys()));
  });

  it('from a base that does not: each removed genre word counted once, from the state before the removal', () => {
    // the same store's columns and records, its genre counts left out (as a snapshot written before them restores)
    const unknown = new VenueStore(
      {
        lat: store.lat,
        lon: store.lon,
        chain: store.chain,
        caters: store.caters,
        primaryGenre: store.primaryGenre,
        termWords: store.terms.words,
        termStart: store.termStart,
        termCodes: store.termCodes,
        vibeWords: store.vibes.words,
        vibeStart: store.vibeStart,
        vibeCodes: store.vibeCodes,
        genreSpellings: store.genreSpellings,
        idOrder: store.idsInOrder(),
      },
      store.source,
    );
    expect(unknown.genreCounts).toBeNull();
    const all = scan(records);
    const asked: string[][] = [];
    const words = new LiveWords(unknown, (w) => {
      asked.push([...w].sort());
      return new Map([...w].map((g) => [g, all.get(g) ?? 0]));
    });
    expect(words.exactGenreCounts()).toBeNull();
    words.removeAll([{ store: unknown, indices }]);
    // one call, for every genre word of the removed venues
    expect(asked).toEqual([[...scan(gone).keys()].sort()]);
    // every genre word of the fixtures has a venue among those gone: all now counted
    expect(scan(gone).size).toBe(all.size);
    expect(sorted(words.exactGenreCounts())).toEqual(scan(left));
    expect(new Set(words.words().genres)).toEqual(new Set(scan(left).keys()));
  });
});
