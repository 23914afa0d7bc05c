import type { VenueRecord } from '../schema/venue.js';
import { FLAG_LISTS, fillFields } from './fill-gaps.js';
import type { ImportReport } from './import-report.js';
import { compatibleVenueNames } from './name-key.js';

/**
 * One record per id, for inputs that overlap (two OSM extracts holding one element, such
 * as the London pubs and Veggiekarte's GB file). The first record of an id keeps its
 * values; each later one of a compatible name (name-key.ts: every word of one is a word of
 * the other) fills the fields it lacks (fill-gaps.ts) and is skipped as `duplicate_id`
 * ("folded"); a later one under another name is another business in the element's place
 * (the extracts are of different years) and is skipped whole ("not folded").
 *
 * Lists united: the flags (`establishmentFlags`, `catersFlags`) and the word lists
 * `additionalGenres`, `vibes` and `highlights`, whose items are each true of the place
 * whichever extract saw them (Veggiekarte's vegan flag on a pub's element). Lists of
 * objects (`images`, `events`, `menus`) have no identity to unite on and stay the first's
 * when it has any; `openingHoursNotes` goes with the first's opening hours.
 */
export const REPEATED_ID_LISTS: ReadonlySet<string> = new Set([...FLAG_LISTS, 'additionalGenres', 'vibes', 'highlights']);

/**
 * The records in order of each id's first appearance, each folded with its repeats.
 * Counts in `report`: one `duplicate_id` skip per repeat, and the counter
 * `fields filled from a repeated id` (fill-gaps.ts says what one field is).
 */
export function foldRepeatedIds(records: readonly VenueRecord[], report: ImportReport): VenueRecord[] {
  const out: VenueRecord[] = [];
  const slot = new Map<string, number>();
  for (const r of records) {
    const at = slot.get(r.id);
    if (at === undefined) {
      slot.set(r.id, out.length);
      out.push(r);
      continue;
    }
    const first = out[at] as VenueRecord;
    if (!compatibleVenueNames(first.name, r.name)) {
      // the element changed hands between the extracts ("The Crown", a pub in 2024, was "Le Pain
      // Quotidien" in 2022): the later business's flags, website or phone are not the first's (audit 72e F3)
      report.skip('duplicate_id', r.id, `not folded: named ${JSON.stringify(r.name)} here, ${JSON.stringify(first.name)} in the first`);
      report.count('repeated ids under another name, not folded');
      continue;
    }
    const { record, filled } = fillFields(first, r, REPEATED_ID_LISTS);
    out[at] = record;
    report.skip('duplicate_id', r.id, filled > 0 ? `folded, ${filled} field${filled === 1 ? '' : 's'} filled` : 'folded');
    if (filled > 0) report.count('fields filled from a repeated id', filled);
  }
  return out;
}
