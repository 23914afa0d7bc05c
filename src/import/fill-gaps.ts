import type { VenueRecord } from '../schema/venue.js';

/**
 * How the merge makes one record of two that are one venue: the primary record keeps its
 * id, location and every field it has; the secondary fills the rest. Used for linked pairs
 * (OSM first, then FHRS, then Overture: merge.ts) and for two records of one id
 * (repeated-ids.ts), with different lists to unite.
 *
 * - a field the primary lacks is copied;
 * - objects (`externalIds`, `amenities`, `business`, ...) merge key by key, primary first;
 * - lists named in `unitedLists` are united, the primary's items first, without repeats;
 *   other lists stay the primary's;
 * - the opening-hours fields (`openingHoursText`, `regularOpeningHours`,
 *   `openingHoursNotes`) describe one value and are taken together: from the secondary only
 *   when the primary has none of them, so that notes never describe another source's text.
 */

/** Lists united when two sources describe one venue: flags, each true of the venue. */
export const FLAG_LISTS: ReadonlySet<string> = new Set(['establishmentFlags', 'catersFlags']);

const HOURS_FIELDS: ReadonlySet<string> = new Set(['openingHoursText', 'regularOpeningHours', 'openingHoursNotes']);

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * `primary` with its gaps filled from `secondary` (rules above), and `filled`: how many
 * fields gained something (a field copied, an object gaining keys, a list gaining items
 * each count 1).
 */
export function fillFields(primary: VenueRecord, secondary: VenueRecord, unitedLists: ReadonlySet<string>): { record: VenueRecord; filled: number } {
  const out: Record<string, unknown> = { ...primary };
  const primaryHasHours = Object.keys(primary).some((k) => HOURS_FIELDS.has(k) && out[k] !== undefined);
  let filled = 0;
  for (const [key, value] of Object.entries(secondary as Record<string, unknown>)) {
    if (key === 'id' || key === 'location' || value === undefined) continue;
    if (HOURS_FIELDS.has(key) && primaryHasHours) continue;
    const mine = out[key];
    if (mine === undefined) {
      out[key] = structuredClone(value);
      filled++;
    } else if (isPlainObject(mine) && isPlainObject(value)) {
      if (Object.keys(value).some((k) => mine[k] === undefined && value[k] !== undefined)) {
        out[key] = { ...value, ...mine };
        filled++;
      }
    } else if (unitedLists.has(key) && Array.isArray(mine) && Array.isArray(value)) {
      const extra = value.filter((v) => !mine.includes(v));
      if (extra.length > 0) {
        out[key] = [...mine, ...extra];
        filled++;
      }
    }
  }
  return { record: out as VenueRecord, filled };
}

/** `primary` with the gaps filled from `secondary`, flag lists united (a linked pair). */
export function fillGaps(primary: VenueRecord, secondary: VenueRecord): VenueRecord {
  return fillFields(primary, secondary, FLAG_LISTS).record;
}
