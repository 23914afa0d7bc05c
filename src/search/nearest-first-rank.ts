import type { ColumnFilter } from '../spatial/column-filter.js';
import type { HitBuffer } from '../spatial/hit-buffer.js';
import type { RadiusWalker } from '../spatial/radius-walk.js';
import type { Tombstones } from '../spatial/tombstones.js';
import type { BulkScorer } from './bulk-scorer.js';
import type { CompiledPreferences, OpenStateSource } from './match.js';
import type { Ranking } from './ranking.js';
import { WorstOfBest } from '../spatial/worst-of-best.js';

/** The largest total a venue can have (match.ts: a weighted mean of parts in [0, 1], rounded). */
const BEST_TOTAL = 1;
/** Matches per batch of the walk: the stop test runs between batches. */
const BATCH = 32;

/**
 * The matches of a POINT search around one centre that can reach ranks [0, k), found
 * nearest-first (issue 16), with the number of the others. The contract's order is total
 * descending, then distance ascending, then id: once k scored matches have the best total
 * a venue can have (1) and lie within D metres, a venue farther than D cannot reach the page
 * whatever its total. So the walk (src/spatial/radius-walk.ts) gives the circle's venues in
 * batches, nearest node first; each batch is scored into the ranking; and the walk stops as
 * soon as every venue left is farther than the k-th nearest best-total match. The venues
 * left, and the ranked ones farther than that match, are only counted (whole subtrees inside
 * the circle by their size). When fewer than k venues have the best total, every venue of the
 * circle is scored, as before.
 *
 * Valid only where scoring never drops a venue that the walk's column filter accepts
 * (match.ts hardOnlyByColumns), so that a counted venue is a match; and with one opening
 * instant for every venue (the bulk scorer's condition). Not re-entrant.
 */
export class NearestFirstRank {
  private readonly walker: RadiusWalker;
  private readonly scorer: BulkScorer;
  private readonly best = new WorstOfBest();

  constructor(walker: RadiusWalker, scorer: BulkScorer) {
    this.walker = walker;
    this.scorer = scorer;
  }

  /**
   * Fills `ranking` (cleared first) with the matches within `radius` metres of (lat, lon)
   * that can reach ranks [0, k) (k >= 1), and perhaps others; returns how many more match
   * but were only counted (totalResults = ranking.length + the return value), or -1 when the
   * walk does not apply (the local frame does not hold: the caller measures with
   * withinRadius). `hits` is scratch. `prefs.asked` 0: every match has total 1. The venues
   * hidden in `tombstones` (live data) are neither ranked nor counted.
   *
   * `shared` (live data, one request ranked on several disjoint stores whose pages are
   * merged): the distances of the best-total matches of the stores ranked before, reset by
   * the caller to `k` once per request; this store's are added to it, and the walk stops as
   * soon as no venue left can reach the merged page. The ranking then holds every venue of
   * this store that can reach it (perhaps none), and the others are counted.
   */
  collect(
    prefs: CompiledPreferences,
    opening: OpenStateSource,
    lat: number,
    lon: number,
    radius: number,
    filter: ColumnFilter | null,
    k: number,
    hits: HitBuffer,
    ranking: Ranking,
    tombstones: Tombstones | null = null,
    shared: WorstOfBest | null = null,
  ): number {
    ranking.clear();
    const walker = this.walker;
    if (!walker.begin(lat, lon, radius, filter, tombstones)) return -1;
    const best = shared ?? this.best;
    if (shared === null) best.reset(Math.max(1, k));
    // the k-th smallest distance among the best-total matches so far (Infinity: fewer than k)
    let worst = best.threshold;
    for (;;) {
      hits.clear();
      // Nothing farther than `worst` can reach the page: the walk stops there, even mid-batch.
      if (walker.next(hits, BATCH, worst) === 0) break;
      const from = ranking.length;
      if (prefs.asked === 0) {
        for (let j = 0; j < hits.length; j++) ranking.push(hits.idx[j]!, 1, hits.dist[j]!, 0);
      } else {
        this.scorer.scoreAppend(prefs, hits, opening, ranking);
      }
      const total = ranking.total;
      const dist = ranking.dist;
      for (let j = from; j < ranking.length; j++) if (total[j]! >= BEST_TOTAL) worst = best.add(dist[j]!);
      // Every venue left is strictly farther than k best-total matches: none can reach the page.
      if (walker.pendingBound > worst) break;
    }
    // Nor can a ranked venue farther than them (the last batch and leaves overshoot): counted,
    // not ranked, so that the page is chosen from about k venues.
    const farther = ranking.dropFartherThan(best.threshold);
    return walker.countRest() + farther;
  }
}
