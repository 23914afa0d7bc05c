import { ZoneTable } from './time-zone.js';
import { correctedZone } from './zone-corrections.js';

/**
 * A zone table of a snapshot written under older zone corrections (its header's `zoneRules`
 * is not ZONE_RULES_VERSION), brought up to date: each venue inside a corrected area whose
 * record gives no `timeZone` (`explicitZone(i)` undefined) takes the area's zone, as a build
 * by this version gives it (zoneForLocation asks the corrections first). A snapshot keeps
 * each venue's zone, so without this an upgrade served the old, wrong zones for good (audit
 * 75d F1: Dili as Asia/Makassar, an hour behind).
 *
 * Cost: the corrections' box tests per venue (~10 ms at 1M), and the record of each venue
 * inside an area read for its `timeZone` (a few, where venues are British). Returns `zones`
 * itself when no venue changes; else a new table (the codes copied, the names extended).
 */
export function zonesUnderCurrentRules(
  zones: ZoneTable,
  lat: ArrayLike<number>,
  lon: ArrayLike<number>,
  explicitZone: (venueIndex: number) => string | undefined,
): { readonly zones: ZoneTable; readonly changed: number } {
  let codes: Uint16Array | null = null;
  let names: string[] | null = null;
  let changed = 0;
  for (let i = 0; i < zones.size; i++) {
    const corrected = correctedZone(lat[i]!, lon[i]!);
    if (corrected === undefined || zones.zoneOf(i) === corrected || explicitZone(i) !== undefined) continue;
    names ??= zones.names.slice();
    codes ??= zones.codes.slice();
    let code = names.indexOf(corrected);
    if (code < 0) code = names.push(corrected) - 1;
    codes[i] = code;
    changed++;
  }
  return { zones: codes === null ? zones : new ZoneTable(codes, names!), changed };
}
