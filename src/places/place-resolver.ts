/**
 * Turning a human place name ("Soho", "Manchester", "NW1") into a centre. Find uses one
 * resolver; the engine builds a default (gazetteer + places learnt from the venues) and a
 * user can pass any object of this shape instead.
 */
export type PlaceKind = 'postcode' | 'area' | 'city' | 'town' | 'district';

export interface ResolvedPlace {
  /** The place's own spelling ("Covent Garden", "NW1"). */
  readonly name: string;
  /** Centre, degrees. */
  readonly lat: number;
  readonly lon: number;
  readonly kind: PlaceKind | string;
}

export interface PlaceResolver {
  /** The place a name means, or null when unknown. Pure: no I/O per call. */
  resolve(name: string): ResolvedPlace | null;
}
