import type { ColumnFilter } from '../spatial/column-filter.js';
import { HitBuffer } from '../spatial/hit-buffer.js';
import { IndexRanges } from '../spatial/index-ranges.js';
import type { RadiusWalker } from '../spatial/radius-walk.js';
import type { BulkScorer } from './bulk-scorer.js';
import type { CompiledPreferences, OpenStateSource } from './match.js';
import type { Ranking } from './ranking.js';
import { WorstOfBest } from '../spatial/worst-of-best.js';

/** The largest total a venue can have (match.ts: a weighted mean of parts in [0, 1], rounded). */
const BEST_TOTAL = 1;
/** Candidates scored per batch: the threshold rises between batches. */
const BATCH = 64;
/**
 * Buckets of the ranges' lower distance bounds over the radius: the passes visit nearer
 * ranges first, so the k nearest best-total matches are found early and farther ranges are
 * passed over. Town-centre data, 1M, vegan + soft preferences: 71 candidates measured a search
 * instead of 120 in the walk's order; ~3 % faster (48.6 against 50.0 µs, medians of 6
 * alternated pairs of processes).
 */
const NEAR_BUCKETS = 8;

/**
 * The matches of a POINT search around one centre, with preferences, that can reach ranks
 * [0, k), found by their totals' upper bound (issue 16), with the number of the others.
 *
 * The contract's order is total descending first. The walk (src/spatial/radius-walk.ts)
 * covers the circle: it measures the venues of the subtrees crossing its edge and hands over
 * every index range it covered, the subtrees wholly inside marked whole (counted here by
 * their size, or by a popcount of the bit planes of the column filter: venue-bitmaps.ts).
 * Then, in two passes over the ranges (nearer ranges first), only venues whose total can
 * reach the k-th best total scored so far are measured and scored:
 *   1. the venues meeting every asked part but the opening state, found 32 at a time from
 *      the bit planes; when k of them have the best total (1), no other venue can reach the
 *      page, nor a best-total one farther than the k-th nearest of them (such candidates,
 *      and whole ranges beyond that distance, are passed over);
 *   2. otherwise the other venues the filter accepts, each with an upper bound of its total
 *      from its columns (BulkScorer.selectRanges: the opening state taken as the best).
 * The venues left out have totals below the k-th best (or tie with it and lie farther) and
 * cannot reach the page; they are counted, not ranked.
 *
 * Valid only where scoring never drops a venue that the walk's column filter accepts
 * (match.ts hardOnlyByColumns), so that a counted venue is a match; with one opening instant
 * for every venue and the bulk scorer covering the preferences (`prefs.asked` not 0); and
 * for a tree whose positions are the venues (RadiusWalker.positionsAreVenues). Not
 * re-entrant.
 */
export class ThresholdRank {
  private readonly walker: RadiusWalker;
  private readonly scorer: BulkScorer;
  private readonly best = new WorstOfBest();
  private readonly ranges = new IndexRanges();
  /** The walk's ranges, nearer first (NEAR_BUCKETS). */
  private readonly byNear = new IndexRanges();
  private readonly bucketCounts = new Int32Array(NEAR_BUCKETS + 1);
  private readonly candidates = new HitBuffer(BATCH);
  /** The k smallest distances of best-total matches so far. */
  private readonly nearest = new WorstOfBest();
  /** The k-th smallest distance of a best-total match so far (Infinity: fewer than k). */
  private bestNear = Number.POSITIVE_INFINITY;
  /** Where the scan of the ranges goes on: range, index. */
  private readonly at = new Int32Array(2);

  constructor(walker: RadiusWalker, scorer: BulkScorer) {
    this.walker = walker;
    this.scorer = scorer;
  }

  /**
   * Fills `ranking` (cleared first) with the matches within `radius` metres of (lat, lon)
   * that can reach ranks [0, k) (k >= 1), and perhaps others; returns how many more match
   * but were only counted (totalResults = ranking.length + the return value), or -1 when the
   * walk does not apply (the local frame does not hold, or the tree's positions are not the
   * venues: the caller measures with withinRadius).
   */
  collect(
    prefs: CompiledPreferences,
    opening: OpenStateSource,
    lat: number,
    lon: number,
    radius: number,
    filter: ColumnFilter | null,
    k: number,
    ranking: Ranking,
  ): number {
    ranking.clear();
    const walker = this.walker;
    if (!walker.positionsAreVenues || !walker.begin(lat, lon, radius, filter)) return -1;
    const ranges = this.ranges.clear();
    const bitmaps = this.scorer.bitmaps;
    bitmaps.planFilter(filter?.catersRequired ?? 0, filter?.chainRequired ?? -1);
    // Under a filter, the edge's venues are counted here from its bit planes (only the venues
    // it accepts are measured); otherwise the walk measures them.
    const edgeByPlanes = bitmaps.filters;
    const edgeMatches = walker.countRest(ranges, !edgeByPlanes);
    this.best.reset(Math.max(1, k));
    this.nearest.reset(Math.max(1, k));
    this.bestNear = Number.POSITIVE_INFINITY;
    const scorer = this.scorer;
    const candidates = this.candidates.clear();
    // the k-th best total scored so far (-Infinity: fewer than k)
    let minTotal = Number.NEGATIVE_INFINITY;
    const at = this.at;
    // Pass 1: the venues meeting every asked part but the opening state, 32 at a time. When k
    // of them have the best total, every other venue has a lower total: none can reach the page.
    const full = bitmaps.plan(prefs);
    // the circle's matches: every filtered venue of the whole ranges, and those of the
    // crossing ranges within the circle
    let matches = edgeMatches;
    for (let r = 0; r < ranges.length; r++) {
      if (ranges.whole[r] === 1) matches += bitmaps.countFiltered(ranges.lo[r]!, ranges.hi[r]!);
      else if (edgeByPlanes) matches += bitmaps.countFilteredWithin(ranges.lo[r]!, ranges.hi[r]!, walker);
    }
    const near = this.byNear.orderByNear(ranges, radius, NEAR_BUCKETS, this.bucketCounts);
    const first = near.length > 0 ? near.lo[0]! : 0;
    if (full) {
      at[0] = 0;
      at[1] = first;
      while (at[0]! < near.length) {
        bitmaps.selectFull(near.lo, near.hi, near.near, near.length, this.bestNear, at, candidates, BATCH);
        if (candidates.length >= BATCH) minTotal = this.score(prefs, opening, ranking, minTotal);
      }
      if (candidates.length > 0) minTotal = this.score(prefs, opening, ranking, minTotal);
      if (minTotal >= BEST_TOTAL) return matches - ranking.length;
    }
    // Pass 2: the others whose bound reaches the k-th best total so far.
    at[0] = 0;
    at[1] = first;
    while (at[0]! < near.length) {
      scorer.selectRanges(prefs, near.lo, near.hi, near.length, at, minTotal, candidates, BATCH, full);
      if (candidates.length >= BATCH) minTotal = this.score(prefs, opening, ranking, minTotal);
    }
    if (candidates.length > 0) this.score(prefs, opening, ranking, minTotal);
    return matches - ranking.length;
  }

  /** Measures and scores the candidates into the ranking (clearing them); returns the new k-th best total. */
  private score(prefs: CompiledPreferences, opening: OpenStateSource, ranking: Ranking, minTotal: number): number {
    const candidates = this.candidates;
    this.walker.keepWithin(candidates);
    // k matches have the best total: only a nearer one can still reach the page
    if (this.bestNear < Number.POSITIVE_INFINITY) candidates.dropFartherThan(this.bestNear);
    const from = ranking.length;
    this.scorer.scoreAppend(prefs, candidates, opening, ranking);
    candidates.clear();
    const { total, dist } = ranking;
    const best = this.best;
    const nearest = this.nearest;
    let worst = Number.POSITIVE_INFINITY;
    for (let j = from; j < ranking.length; j++) {
      const t = total[j]!;
      worst = best.add(-t);
      if (t >= BEST_TOTAL) this.bestNear = nearest.add(dist[j]!);
    }
    return worst === Number.POSITIVE_INFINITY ? minTotal : -worst;
  }
}

