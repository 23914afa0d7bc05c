/**
 * Turning a human place name ("Soho", "Manchester", "NW1") into a centre. Find uses one
 * resolver; the engine builds a default (gazetteer + places learnt from the venues) and a
 * user can pass any object of this shape instead.
 */
export type PlaceKind = 'postcode' | 'area' | 'city' | 'town' | 'district' | 'locality';

export interface ResolvedPlace {
  /** The place's own spelling ("Covent Garden", "NW1"). */
  readonly name: string;
  /** Centre, degrees. */
  readonly lat: number;
  readonly lon: number;
  readonly kind: PlaceKind | string;
}

/**
 * Where the data's venues are, so that a name several places share (Richmond, Kensington)
 * resolves to the one among the venues. Find passes its density grid (src/find/density-grid.ts).
 */
export interface VenueDensity {
  /**
   * Venues near a point: at least every venue within `radiusMeters`, at most those in the
   * box of +- `radiusMeters` around it widened to whole grid cells.
   */
  venuesNear(lat: number, lon: number, radiusMeters: number): number;
  /** Metres from a point to the nearest venue, to grid-cell precision; Infinity when there are none. */
  nearestVenueMeters(lat: number, lon: number): number;
  /**
   * How far from the nearest venue a point still lies within the data's region (metres):
   * about the gaps between the venues' own areas. Optional; without it, 10 km.
   */
  reachMeters?(): number;
  /**
   * Optional; changes whenever the venues it describes change (a live engine's grid follows
   * upserts and removes). Without it the venues are taken never to change under one object,
   * so a resolver may keep answers computed from it.
   */
  readonly version?: number;
}

export interface PlaceResolver {
  /**
   * The place a name means, or null when unknown. Pure: no I/O per call. `venues`, when
   * given, tells where the data is (for choosing between places of one name). May throw an
   * UnknownPlaceError of its own, with a more telling message than a null would give (the
   * default resolver does for a known name qualified by an area it is not in: "St Ives, Devon").
   */
  resolve(name: string, venues?: VenueDensity): ResolvedPlace | null;
  /** Up to `limit` known names close in spelling to an unknown `name`, best first (optional). */
  suggest?(name: string, limit: number, venues?: VenueDensity): string[];
}
