import KDBush from 'kdbush';
import { BoxList } from '../geo/bbox.js';
import { distanceMeters } from '../geo/distance.js';

/** What the pairing reads of a record: its point, [lat, lon]. */
export interface Placed {
  readonly location: { readonly coordinates: readonly [number, number] };
}

/**
 * One-to-one pairing of two sets of records by distance, shared by the merge's joins.
 *
 * Candidates are the pairs (a, b) with a in `as`, b in `bs` (indices into `records`: venue
 * records, or points held alone), their points at most `maxMeters` apart (geodesic, metres) and `accept(a, b, meters)` true. They are taken
 * nearest first (ties by a's then b's index, so the result does not depend on the index's
 * order), and a pair whose a or b is already paired is passed over: each record takes at
 * most one partner, its nearest acceptable one not taken by a nearer pair.
 *
 * Returns a map from the index (into `records`) of each paired a to that of its b.
 */
export function pairNearest(
  records: readonly Placed[],
  as: readonly number[],
  bs: readonly number[],
  maxMeters: number,
  accept: (a: number, b: number, meters: number) => boolean,
): Map<number, number> {
  const links = new Map<number, number>();
  if (as.length === 0 || bs.length === 0) return links;
  const index = new KDBush(bs.length);
  for (const i of bs) {
    const [lat, lon] = (records[i] as Placed).location.coordinates;
    index.add(lon, lat);
  }
  index.finish();

  const pairs: Array<{ a: number; b: number; meters: number }> = [];
  const boxes = new BoxList(2);
  for (const a of as) {
    const [lat, lon] = (records[a] as Placed).location.coordinates;
    boxes.clear().addPadded(lat, lon, lat, lon, maxMeters);
    for (let k = 0; k < boxes.count; k++) {
      const c = boxes.coords;
      for (const j of index.range(c[k * 4]!, c[k * 4 + 1]!, c[k * 4 + 2]!, c[k * 4 + 3]!)) {
        const b = bs[j] as number;
        const [blat, blon] = (records[b] as Placed).location.coordinates;
        const meters = distanceMeters(lat, lon, blat, blon);
        if (meters <= maxMeters && accept(a, b, meters)) pairs.push({ a, b, meters });
      }
    }
  }
  pairs.sort((p, q) => p.meters - q.meters || p.a - q.a || p.b - q.b);
  const taken = new Set<number>();
  for (const p of pairs) {
    if (links.has(p.a) || taken.has(p.b)) continue;
    links.set(p.a, p.b);
    taken.add(p.b);
  }
  return links;
}
