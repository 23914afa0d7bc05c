import type { VenueRecord } from '../../../src/schema/venue.js';
import { geodesic } from '../../support/oracle.js';
import { oracleNameKey } from './oracle-name-key.js';

/**
 * Oracle of OSM node/way twins (audit 64c F6) for the tests: every pair of records compared,
 * without the importer's code. A pair is a node and a way or relation of equal name key
 * (oracle-name-key.ts), equal primaryGenre, at most 25 m apart (GeographicLib).
 */

const isNode = (r: VenueRecord): boolean => r.id.startsWith('osm:node/');

/** Every twin pair, [node, way or relation], in input order of the first record. */
export function twinOracle(records: readonly VenueRecord[]): Array<[VenueRecord, VenueRecord]> {
  const pairs: Array<[VenueRecord, VenueRecord]> = [];
  // each record's key once (not once per pair: 4.5 million pairs for the pubs' 3,000 records)
  const keys = records.map((r) => oracleNameKey(r.name));
  const nodes = records.map(isNode);
  for (let i = 0; i < records.length; i++) {
    for (let j = i + 1; j < records.length; j++) {
      const [a, b] = [records[i] as VenueRecord, records[j] as VenueRecord];
      if (nodes[i] === nodes[j] || a.primaryGenre !== b.primaryGenre) continue;
      const key = keys[i];
      if (key === '' || key !== keys[j]) continue;
      if (geodesic(a.location.coordinates[0], a.location.coordinates[1], b.location.coordinates[0], b.location.coordinates[1]) <= 25) pairs.push(isNode(a) ? [a, b] : [b, a]);
    }
  }
  return pairs;
}
