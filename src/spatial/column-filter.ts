/**
 * A prefilter on the store's columns that the spatial walks apply before measuring a point:
 * the non-compromise preferences that a column answers alone. A venue failing it is never
 * measured or returned, which is what the search would do with it anyway (a hard failure
 * drops the venue). Reused across queries; the search fills it per query.
 *
 * Invariant: `catersRequired === 0`, `chainRequired === -1` and `hidden === null` accept every
 * venue.
 */
export class ColumnFilter {
  /** Caters bit set per venue (VenueStore.caters). */
  readonly caters: Uint16Array;
  /** Chain value per venue (VenueStore.chain). */
  readonly chain: Uint8Array;
  /** Caters bits a venue must all have (0: none). */
  catersRequired = 0;
  /** The chain value a venue must have, or -1 (any). */
  chainRequired = -1;
  /**
   * Venues to refuse (live data: replaced and removed ones), one byte per dense index
   * (non-zero: refused), or null. Only the group walk and the corridor's nearest walk
   * (CorridorWalker.countNearest) read it; the radius and full corridor walks' hits are
   * filtered afterwards (search-service's dropHidden).
   */
  hidden: Uint8Array | null = null;

  constructor(caters: Uint16Array, chain: Uint8Array) {
    this.caters = caters;
    this.chain = chain;
  }

  /** Whether the filter accepts every venue (the walks then skip it). */
  get acceptsAll(): boolean {
    return this.catersRequired === 0 && this.chainRequired === -1 && this.hidden === null;
  }

  reset(): this {
    this.catersRequired = 0;
    this.chainRequired = -1;
    this.hidden = null;
    return this;
  }
}
