// Ranking.page (src/search/ranking.ts): every page equals the same slice of a brute-force
// sort of the matches in the contract's order (total descending, distance ascending, id
// ascending), over list lengths and page ends that reach each of its ways (the whole list
// sorted, insertion into a sorted list for a page end up to 32, the bounded heap for a larger
// small page, the comparator sort of a long page), with many
// ties of total and distance so that the id decides often.
import { describe, expect, it } from 'vitest';
import { Ranking } from '../../src/search/ranking.js';
import { prng } from '../support/oracle.js';

interface Match {
  readonly venue: number;
  readonly total: number;
  readonly dist: number;
}

/** Ids whose string order differs from the venue numbers' order (and from their lengths'). */
const idOf = (venue: number): string => `v${(venue * 7919) % 1009}-${venue}`;

function bruteForcePage(matches: readonly Match[], offset: number, limit: number): number[] {
  const sorted = [...matches].sort((a, b) => {
    if (a.total !== b.total) return b.total - a.total;
    if (a.dist !== b.dist) return a.dist - b.dist;
    const ia = idOf(a.venue);
    const ib = idOf(b.venue);
    return ia < ib ? -1 : ia > ib ? 1 : 0;
  });
  return sorted.slice(offset, offset + limit).map((m) => m.venue);
}

function randomMatches(n: number, random: () => number): Match[] {
  const out: Match[] = [];
  for (let k = 0; k < n; k++) {
    // totals and distances from small sets: many ties
    out.push({ venue: k * 3 + 1, total: [1, 1, 0.75, 0.5, 0][Math.floor(random() * 5)]!, dist: Math.floor(random() * 12) * 50 });
  }
  return out;
}

describe('Ranking.page against a brute-force sort', () => {
  const ranking = new Ranking(idOf, 4);
  const random = prng(20261127);
  const lengths = [0, 1, 2, 5, 19, 20, 21, 24, 25, 30, 45, 64, 65, 80, 100, 135, 256, 300, 1000];
  const pages: Array<[number, number]> = [
    [0, 1],
    [0, 20],
    [20, 20],
    [0, 24],
    [0, 25],
    [3, 60],
    [0, 64],
    [0, 65],
    [50, 50],
    [0, 300],
    [990, 20],
  ];

  it.each(lengths)('%i matches: every page in order, ties broken by distance then id', (n) => {
    for (let trial = 0; trial < 6; trial++) {
      const matches = randomMatches(n, random);
      for (const [offset, limit] of pages) {
        ranking.clear();
        for (const m of matches) ranking.push(m.venue, m.total, m.dist, 0);
        const slots = ranking.page(offset, limit);
        const venues = Array.from(slots, (slot) => ranking.venue[slot]!);
        expect(venues, `n ${n}, offset ${offset}, limit ${limit}, trial ${trial}`).toEqual(bruteForcePage(matches, offset, limit));
      }
    }
  });
});
