import type { TravelMode } from '../schema/search.js';
import { DETOUR_FACTOR, travelMinutes } from './travel.js';

/**
 * Per-mode speed models (docs/search.md, "Travel"): minutes = overhead + d * detour / speed,
 * d the straight-line WGS84 distance in metres. A location without `travelMode` keeps the
 * default model of travel.ts (the fastest of walking, local and long-distance transport),
 * whose three ways are the three pieces below.
 *
 *   mode       detour  speed      overhead   why the overhead
 *   WALK       1.3     4.8 km/h   0 min
 *   BICYCLE    1.3     15 km/h    0 min
 *   DRIVE      1.4     30 km/h    8 min      to the car, and parking at the other end
 *   TRANSIT    1.3     20 km/h    10 min     to the stop and waiting (bus, tube, tram)
 *
 * Every piece is affine and increasing in d, so minutes(d) = min over a location's pieces is
 * increasing, and a venue further away never shows as quicker. Costs use these unrounded
 * minutes; reported `durationMinutes` are rounded to 0.1 min (the default model's exactly
 * as before).
 */

/** At most this many affine pieces per location. */
export const MAX_TRAVEL_PIECES = 3;

interface Piece {
  /** Minutes before moving. */
  readonly startMinutes: number;
  /** Minutes per straight-line metre: detour / (metres per minute). */
  readonly minutesPerMeter: number;
}

const piece = (startMinutes: number, detour: number, kmPerHour: number): Piece => ({
  startMinutes,
  minutesPerMeter: detour / ((kmPerHour * 1000) / 60),
});

/** The default model of travel.ts as pieces: walk 4.8 km/h; 10 min + 20 km/h; 30 min + 80 km/h; detour 1.3. */
const DEFAULT_PIECES: readonly Piece[] = [piece(0, DETOUR_FACTOR, 4.8), piece(10, DETOUR_FACTOR, 20), piece(30, DETOUR_FACTOR, 80)];

export const MODE_PIECES: Readonly<Record<TravelMode, readonly Piece[]>> = {
  WALK: [piece(0, 1.3, 4.8)],
  BICYCLE: [piece(0, 1.3, 15)],
  DRIVE: [piece(8, 1.4, 30)],
  TRANSIT: [piece(10, 1.3, 20)],
};

function piecesOf(mode: TravelMode | undefined): readonly Piece[] {
  return mode === undefined ? DEFAULT_PIECES : MODE_PIECES[mode];
}

/** Unrounded minutes to cover a straight line of `meters` by `mode` (undefined: the default model). */
export function modeMinutes(mode: TravelMode | undefined, meters: number): number {
  let best = Number.POSITIVE_INFINITY;
  for (const p of piecesOf(mode)) best = Math.min(best, p.startMinutes + meters * p.minutesPerMeter);
  return best;
}

/** Reported minutes (0.1 min): the default model exactly as travel.ts rounds it. */
export function modeDurationMinutes(mode: TravelMode | undefined, meters: number): number {
  if (mode === undefined) return travelMinutes(meters);
  return Math.round(modeMinutes(mode, meters) * 10) / 10;
}

/**
 * The travel costs of a group as typed arrays for the fair walk: person p's cost of a
 * straight line d is weight[p] * min over j < MAX_TRAVEL_PIECES of
 * (start[p * MAX_TRAVEL_PIECES + j] + perMeter[p * MAX_TRAVEL_PIECES + j] * d); unused
 * pieces have start = Infinity.
 */
export interface TravelCosts {
  readonly weight: Float64Array;
  readonly start: Float64Array;
  readonly perMeter: Float64Array;
}

export function travelCosts(people: ReadonlyArray<{ weight?: number; travelMode?: TravelMode }>): TravelCosts {
  const n = people.length;
  const weight = new Float64Array(n);
  const start = new Float64Array(n * MAX_TRAVEL_PIECES).fill(Number.POSITIVE_INFINITY);
  const perMeter = new Float64Array(n * MAX_TRAVEL_PIECES);
  people.forEach((p, k) => {
    weight[k] = p.weight ?? 1;
    piecesOf(p.travelMode).forEach((q, j) => {
      start[k * MAX_TRAVEL_PIECES + j] = q.startMinutes;
      perMeter[k * MAX_TRAVEL_PIECES + j] = q.minutesPerMeter;
    });
  });
  return { weight, start, perMeter };
}
