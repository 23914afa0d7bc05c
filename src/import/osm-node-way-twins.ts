import { distanceMeters } from '../geo/distance.js';
import type { VenueRecord } from '../schema/venue.js';
import { fillGaps } from './fill-gaps.js';
import type { ImportReport } from './import-report.js';
import { venueNameKey } from './name-key.js';
import { pairNearest, type Placed } from './nearest-pairs.js';

/**
 * One OSM place mapped twice (audit 64c F6): a node and the building's way or relation
 * carrying the same name ("The Forge", node/10048694530 and way/59523528, 7.8 m apart). The
 * rule is tight on purpose: a node and a way or relation, the same name key (name-key.ts),
 * the same `primaryGenre`, points at most `OSM_TWIN_METERS` apart; each record takes at most
 * one partner, nearest first (nearest-pairs.ts). Two ways ("The Hill", 40 m apart) or a
 * chain's branches ("Greggs", 71 m) are never twins.
 *
 * `import merge` folds each pair (the node kept); `import osm`, which streams, only counts
 * them, from `TwinPoint`s of the name and genre groups holding both a node and a way or
 * relation (osm-twin-tally.ts keeps every record's part in typed arrays until then).
 */

/** A node and a way/relation of one name and genre are one place when at most this far apart, metres. */
export const OSM_TWIN_METERS = 25;

/** What the rule reads of an OSM record: small enough to hold one per record of a streamed import. */
export interface TwinPoint extends Placed {
  readonly isNode: boolean;
  readonly nameKey: string;
  readonly genre: string | undefined;
}

/** The record's `TwinPoint`, or undefined when it is not an OSM record (`osm:node/`, `osm:way/`, `osm:relation/`) or its name key is empty. */
export function twinPoint(record: VenueRecord): TwinPoint | undefined {
  const kind = /^osm:(node|way|relation)\//.exec(record.id)?.[1];
  const nameKey = venueNameKey(record.name);
  if (kind === undefined || nameKey === '') return undefined;
  const [lat, lon] = record.location.coordinates;
  return { isNode: kind === 'node', nameKey, genre: record.primaryGenre, location: { coordinates: [lat, lon] } };
}

/** The twins among `points` (undefined: not a candidate): a map from each way's or relation's index to its node's. */
export function osmNodeWayTwins(points: ReadonlyArray<TwinPoint | undefined>): Map<number, number> {
  const ways: number[] = [];
  const nodes: number[] = [];
  points.forEach((p, i) => {
    if (p !== undefined) (p.isNode ? nodes : ways).push(i);
  });
  // pairNearest reads only the indices in `ways` and `nodes`, all defined.
  return pairNearest(points as readonly Placed[], ways, nodes, OSM_TWIN_METERS, (w, n) => {
    const [a, b] = [points[w] as TwinPoint, points[n] as TwinPoint];
    return a.nameKey === b.nameKey && a.genre === b.genre;
  });
}

/** The skip reason of a way or relation folded into its node. */
export const OSM_TWIN_REASON = 'osm_node_way_twin';

/**
 * `records` with each twin pair made one record (merge.ts): the node keeps its id, point and
 * every field it has, the way or relation fills its gaps (fill-gaps.ts), and is skipped as
 * `osm_node_way_twin` ("into osm:node/N, D m"). Counted as `OSM ways/relations folded into a
 * node of the same place`. Order kept otherwise; skips in input order.
 */
export function foldOsmNodeWayTwins(records: readonly VenueRecord[], report: ImportReport): VenueRecord[] {
  const twins = osmNodeWayTwins(records.map(twinPoint));
  if (twins.size === 0) return [...records];
  const out = [...records];
  for (const [way, node] of [...twins].sort((a, b) => a[0] - b[0])) {
    const w = records[way] as VenueRecord;
    const n = records[node] as VenueRecord;
    out[node] = fillGaps(out[node] as VenueRecord, w);
    const [lat1, lon1] = n.location.coordinates;
    const [lat2, lon2] = w.location.coordinates;
    report.skip(OSM_TWIN_REASON, w.id, `into ${n.id}, ${distanceMeters(lat1, lon1, lat2, lon2).toFixed(1)} m`);
    report.count('OSM ways/relations folded into a node of the same place');
  }
  return out.filter((_, i) => !twins.has(i));
}
