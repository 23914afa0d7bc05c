import { frameDistanceSq, ruledFromFrame, squaredRadius, type LocalFrame } from '../geo/distance.js';
import type { MatchVisitor } from './name-index.js';
import type { TopK } from './top-k.js';

const NO_COORDINATES: Float64Array = new Float64Array(0);

/**
 * Find's visitor of name matches (NameIndex.forEachMatch), for both plans that enumerate
 * postings: by relevance (no centre: every match offered with its key) and by distance
 * (names then distance: the matches within the radius offered with their distance). One
 * object of one class per FindService, set up before each enumeration, so the index's calls
 * to `visit` keep one target (see MatchVisitor). Hidden venues (live data) are skipped.
 */
export class MatchCollector implements MatchVisitor {
  /** Matches offered since the last set-up. */
  total = 0;
  private byDistance = false;
  private hidden: Uint8Array | null = null;
  // The circle's centre (degrees), its local frame (LocalFrame's factors) and radius squared
  // (m²). Doubles from the start (NaN, not 0): a field first holding a small integer changes
  // its object's map when it first gets a fraction, and code optimised before deoptimises.
  private lat = Number.NaN;
  private lon = Number.NaN;
  /** Whether the local frame holds for the circle (else the exact distance). */
  private local = true;
  private kx0 = Number.NaN;
  private kx1 = Number.NaN;
  private kx2 = Number.NaN;
  private ky0 = Number.NaN;
  private ky1 = Number.NaN;
  private ky2 = Number.NaN;
  private r2 = Number.NaN;
  private vLat: Float64Array = NO_COORDINATES;
  private vLon: Float64Array = NO_COORDINATES;

  constructor(private readonly top: TopK) {}

  /** Offers every match not hidden, keyed by relevance (the top keeps the smallest: `-key`). */
  byRelevance(hidden: Uint8Array | null): this {
    this.total = 0;
    this.byDistance = false;
    this.hidden = hidden;
    return this;
  }

  /**
   * Offers the matches not hidden within `radius` metres of (lat, lon), keyed by distance,
   * measured as SpatialIndex.withinRadius measures (so both find plans agree at the edge).
   */
  withinRadius(hidden: Uint8Array | null, lat: number, lon: number, radius: number, local: boolean, frame: LocalFrame, vLat: Float64Array, vLon: Float64Array): this {
    this.total = 0;
    this.byDistance = true;
    this.hidden = hidden;
    this.lat = lat;
    this.lon = lon;
    this.local = local;
    this.kx0 = frame.kx0;
    this.kx1 = frame.kx1;
    this.kx2 = frame.kx2;
    this.ky0 = frame.ky0;
    this.ky1 = frame.ky1;
    this.ky2 = frame.ky2;
    this.r2 = squaredRadius(radius);
    this.vLat = vLat;
    this.vLon = vLon;
    return this;
  }

  /** MatchVisitor.touch: by distance the venue's latitude, else what the top compares it by. */
  touch(i: number): number {
    return this.byDistance ? this.vLat[i]! : this.top.touch(i);
  }

  visit(i: number, key: number): void {
    const hidden = this.hidden;
    if (hidden !== null && hidden[i] !== 0) return;
    if (!this.byDistance) {
      this.total++;
      this.top.offer(i, -key);
      return;
    }
    const y = this.vLat[i]!;
    const x = this.vLon[i]!;
    let d2 = frameDistanceSq(y, x, this.lat, this.lon, this.kx0, this.kx1, this.kx2, this.ky0, this.ky1, this.ky2);
    if (!this.local) {
      const d = ruledFromFrame(Math.sqrt(d2), this.lat, this.lon, y, x);
      d2 = d * d;
    }
    if (d2 <= this.r2) {
      this.total++;
      this.top.offer(i, Math.sqrt(d2));
    }
  }
}
