import { distanceMeters } from '../geo/distance.js';
import type { VenueRecord } from '../schema/venue.js';
import { addressPostcode } from './address-place.js';
import { fillGaps } from './fill-gaps.js';
import { checkMergeArguments } from './import-options.js';
import { ImportReport } from './import-report.js';
import { fhrsRegistrationTwins, linkFhrsToOsmByName } from './fhrs-osm-join.js';
import { isNullIsland, NULL_ISLAND_REASON } from './null-island.js';
import { linkOvertureToOsm } from './overture-osm-join.js';
import { foldOsmNodeWayTwins } from './osm-node-way-twins.js';
import { foldRepeatedIds } from './repeated-ids.js';
import { namesShareAWord } from './name-key.js';

export { fillGaps };

/**
 * Merges venues from OSM, FHRS and Overture imports (pure, synchronous).
 *
 * Rule: an OSM record (`externalIds.osm`) whose `externalIds.fhrs` names an FHRS record
 * (one with `externalIds.fhrs` and no `externalIds.osm`, id `fhrs:<n>` from our importer)
 * is linked to it; of OSM's `;` list ("354096;1398897", osm-to-venue.ts) to each record
 * the list names, which fill its gaps in the list's order (audit 68e F2):
 * - the merged record keeps the OSM id, name and location (FHRS points are postcode
 *   centroids) and every field OSM has; FHRS fills the fields OSM lacks (typically
 *   `formattedAddress`, `primaryGenre`), by `fillGaps` (fill-gaps.ts: objects key by key,
 *   flag lists united, OSM first);
 * - the linked FHRS record is not written on its own. Several OSM records naming the same
 *   FHRS id all take its gaps (counted in the report).
 *
 * OSM and FHRS records that no `fhrs:id` links (the OSM record has none, or one absent from
 * the inputs; the FHRS record is named by no OSM record) are linked by equal names within
 * 50 m, or within 200 m at the same postcode and house number (fhrs-osm-join.ts), each
 * taking at most one partner, nearest first; an OSM record an `fhrs:id` links takes one
 * more FHRS record of its name only by the same-address rule (audit 68e F3). Such a pair
 * becomes one record by the same rule. The report counts links of each kind.
 *
 * An Overture record (id `overture:...`) linked to an OSM record by overture-osm-join.ts
 * (same name within 50 m, or a shared website or phone and compatible names within
 * 100 m) fills that OSM record's remaining gaps the same way, after FHRS, and is not
 * written on its own (`merged_into_osm`). The merged venue so has OSM's opening hours,
 * which Overture does not publish.
 *
 * An FHRS record that is a second registration of a linked one (the same name key, postcode
 * and street line: fhrs-osm-join.ts) folds into the same OSM venue after it, and is not written on
 * its own (`merged_into_osm` with the detail `into <osm id>, a second registration of fhrs:<n>`, counted).
 *
 * A record at exactly 0,0 is skipped as `bad_coordinates`, as every importer skips it
 * (null-island.ts), before anything else.
 *
 * Unlinked records pass through unchanged, in input order. Records of one id (overlapping
 * extracts) are folded into the first before any link (repeated-ids.ts): it keeps its
 * values and takes the fields it lacks from the others, which are skipped (`duplicate_id`).
 * Then an OSM place mapped twice, a node and its building's way or relation of the same name
 * key and genre within 25 m (osm-node-way-twins.ts), becomes the node, the way or relation
 * filling its gaps and skipped (`osm_node_way_twin`), before any link.
 */

/** Linked points further apart than this are counted (a hint of a wrong `fhrs:id`). */
export const FAR_LINK_METERS = 500;

/**
 * An OSM `fhrs:id` that names another business: the FHRS record is more than
 * FAR_LINK_METERS away, at another postcode (or none to compare), under a name sharing no
 * word with the OSM one (name-key.ts). Such a link made one venue of two: "Sports Bar &
 * Grill" (174-180 Old Street, EC1V 9BP) named Santore Ristorante Italiano's registration
 * (Exmouth Market, EC1R 4QL, 1.3 km off), which vanished, and the pub's own registration
 * stayed beside it (audit 72e F2). The other far links of the London data are kept: pubs
 * that moved ("Husk Brewery Tap Room", 1.2 km) or were renamed ("The Space Bar", registered
 * as Hubbub Cafe Bar at its address).
 */
function wrongFhrsId(osm: VenueRecord, fhrs: VenueRecord): boolean {
  const [lat1, lon1] = osm.location.coordinates;
  const [lat2, lon2] = fhrs.location.coordinates;
  if (distanceMeters(lat1, lon1, lat2, lon2) <= FAR_LINK_METERS || namesShareAWord(osm.name, fhrs.name)) return false;
  const postcode = addressPostcode(osm.formattedAddress);
  return postcode === undefined || postcode !== addressPostcode(fhrs.formattedAddress);
}

function isFhrsSource(r: VenueRecord): boolean {
  return r.externalIds?.fhrs !== undefined && r.externalIds.osm === undefined;
}

/** The FHRS ids an OSM record's `externalIds.fhrs` names: one, or OSM's `;` list (osm-to-venue.ts, audit 68e F2). */
function fhrsIdsOf(r: VenueRecord): string[] {
  const fhrs = r.externalIds?.fhrs;
  return fhrs === undefined ? [] : fhrs.split(';').map((id) => id.trim()).filter((id) => id !== '');
}

export function mergeVenues(records: Iterable<VenueRecord>, given?: ImportReport): { records: VenueRecord[]; report: ImportReport } {
  checkMergeArguments(records, given);
  const report = given ?? new ImportReport('merge');
  const input = [...records];
  report.read += input.length;
  // The importers' 0,0 rule (null-island.ts) holds for merge's inputs too: a hand-written or
  // third-party file given to merge has no importer before it (audit 63a F7).
  const placed = input.filter((r) => {
    const [lat, lon] = r.location.coordinates;
    if (!isNullIsland(lat, lon)) return true;
    report.skip(NULL_ISLAND_REASON, r.id, '0,0');
    return false;
  });
  // Invariant from here: no record at 0,0; one record per id (repeats folded into the first, skipped as duplicate_id).
  // Then one record per OSM place mapped twice, as a node and as its building (osm-node-way-twins.ts, audit 64c F6).
  const all = foldOsmNodeWayTwins(foldRepeatedIds(placed, report), report);

  const fhrsById = new Map<string, VenueRecord>();
  for (const r of all) {
    const fhrs = r.externalIds?.fhrs;
    if (fhrs !== undefined && isFhrsSource(r) && !fhrsById.has(fhrs)) fhrsById.set(fhrs, r);
  }
  const linkedBy = new Map<string, string[]>();
  /** The FHRS records each OSM record's fhrs:id names (every id of a list), by OSM index, in the list's order. */
  const partnersOf = new Map<number, VenueRecord[]>();
  all.forEach((r, i) => {
    if (r.externalIds?.osm === undefined || r.externalIds.fhrs === undefined) return;
    const partners: VenueRecord[] = [];
    let refused = false;
    for (const fhrs of fhrsIdsOf(r)) {
      const partner = fhrsById.get(fhrs);
      if (partner === undefined) continue;
      if (wrongFhrsId(r, partner)) {
        report.count(`OSM fhrs:id naming an FHRS record of another name and postcode more than ${FAR_LINK_METERS} m away: not linked`);
        refused = true;
        continue;
      }
      partners.push(partner);
      const list = linkedBy.get(fhrs) ?? [];
      if (!list.includes(r.id)) list.push(r.id);
      linkedBy.set(fhrs, list);
    }
    if (partners.length > 0) partnersOf.set(i, partners);
    else if (!refused) report.count('OSM fhrs:id with no FHRS record in the inputs');
  });

  // Name-and-distance links between the OSM and FHRS records no fhrs:id links (it keeps priority).
  const nameFhrs: number[] = [];
  const nameOsm: number[] = [];
  all.forEach((r, i) => {
    const fhrs = r.externalIds?.fhrs;
    if (isFhrsSource(r)) {
      if (fhrsById.get(fhrs as string) === r && !linkedBy.has(fhrs as string)) nameFhrs.push(i);
    } else if (r.externalIds?.osm !== undefined) nameOsm.push(i);
  });
  // An OSM venue an fhrs:id links takes a further FHRS record of its name only at its own address (fhrs-osm-join.ts).
  const fhrsNameLinks = linkFhrsToOsmByName(all, nameFhrs, nameOsm, new Set(partnersOf.keys()));
  const fhrsByNameOf = new Map<number, number>();
  for (const [f, osm] of fhrsNameLinks) fhrsByNameOf.set(osm, f);

  // FHRS records registered twice (same name key, postcode and street line as a linked one) follow the
  // linked one into its OSM venue; the rest stay as they are (fhrs-osm-join.ts).
  const fhrsIndexOf = new Map<VenueRecord, number>();
  const linkedFhrs: number[] = [];
  const unlinkedFhrs: number[] = [];
  all.forEach((r, i) => {
    const fhrs = r.externalIds?.fhrs;
    if (!isFhrsSource(r) || fhrsById.get(fhrs as string) !== r) return;
    fhrsIndexOf.set(r, i);
    (linkedBy.has(fhrs as string) || fhrsNameLinks.has(i) ? linkedFhrs : unlinkedFhrs).push(i);
  });
  const twinOf = fhrsRegistrationTwins(all, linkedFhrs, unlinkedFhrs);
  const twinsOf = new Map<number, number[]>();
  for (const [twin, anchor] of twinOf) twinsOf.set(anchor, [...(twinsOf.get(anchor) ?? []), twin]);
  /** The OSM ids a linked FHRS record (its index) went into. */
  const osmIdsOf = (f: number): string => {
    const osm = fhrsNameLinks.get(f);
    return osm !== undefined ? (all[osm] as VenueRecord).id : (linkedBy.get((all[f] as VenueRecord).externalIds?.fhrs as string) as string[]).join(', ');
  };
  /** `merged` with the gaps filled by the twins of the linked FHRS record `f`. */
  const withTwins = (merged: VenueRecord, f: number | undefined): VenueRecord => {
    let out = merged;
    for (const twin of (f === undefined ? undefined : twinsOf.get(f)) ?? []) out = fillGaps(out, all[twin] as VenueRecord);
    return out;
  };

  const overtureLinks = linkOvertureToOsm(all);
  const overtureOf = new Map<number, number>();
  for (const [o, osm] of overtureLinks) overtureOf.set(osm, o);

  const out: VenueRecord[] = [];
  for (let i = 0; i < all.length; i++) {
    const r = all[i] as VenueRecord;
    const linkedOsm = overtureLinks.get(i) ?? fhrsNameLinks.get(i);
    if (linkedOsm !== undefined) {
      report.skip('merged_into_osm', r.id, `into ${(all[linkedOsm] as VenueRecord).id}`);
      continue;
    }
    const anchor = twinOf.get(i);
    if (anchor !== undefined) {
      report.count('FHRS records folded as a second registration of a linked one');
      report.skip('merged_into_osm', r.id, `into ${osmIdsOf(anchor)}, a second registration of ${(all[anchor] as VenueRecord).id}`);
      continue;
    }
    const fhrs = r.externalIds?.fhrs;
    if (fhrs !== undefined && isFhrsSource(r) && fhrsById.get(fhrs) === r && linkedBy.has(fhrs)) {
      report.skip('merged_into_osm', r.id, `into ${(linkedBy.get(fhrs) as string[]).join(', ')}`);
      continue;
    }
    let merged = r;
    const partners = partnersOf.get(i) ?? [];
    if (partners.length > 0) report.count('OSM records linked to FHRS by fhrs:id');
    // Every id of an OSM fhrs:id list names this place: each partner fills the gaps left, in the list's order.
    for (const [k, partner] of partners.entries()) {
      if (k > 0) report.count('FHRS records linked by a further id of an OSM fhrs:id list');
      if ((linkedBy.get(partner.externalIds?.fhrs as string)?.length ?? 0) > 1) report.count('OSM records sharing one FHRS record');
      const [lat1, lon1] = r.location.coordinates;
      const [lat2, lon2] = partner.location.coordinates;
      if (distanceMeters(lat1, lon1, lat2, lon2) > FAR_LINK_METERS) report.count(`linked points more than ${FAR_LINK_METERS} m apart`);
      merged = withTwins(fillGaps(merged, partner), fhrsIndexOf.get(partner));
    }
    const byName = fhrsByNameOf.get(i);
    if (byName !== undefined) {
      report.count(partners.length > 0 ? 'OSM records linked by fhrs:id also taking an FHRS record of their name and address' : 'OSM records linked to FHRS by name and distance');
      merged = withTwins(fillGaps(merged, all[byName] as VenueRecord), byName);
    }
    const overture = overtureOf.get(i);
    if (overture !== undefined) {
      report.count('OSM records linked to an Overture record');
      merged = fillGaps(merged, all[overture] as VenueRecord);
    }
    out.push(merged);
    report.written++;
  }
  return { records: out, report };
}
