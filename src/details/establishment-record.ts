import type { TimeSlot, WeeklyHours } from '../schema/common.js';
import type { Establishment } from '../schema/establishment.js';
import type { GroupSummary, MatchScore, SearchEstablishment, TravelEstimate } from '../schema/search.js';
import type { VenueRecord } from '../schema/venue.js';
import { EstablishmentFields, FieldSlot, fieldsOfRecord } from '../store/establishment-fields.js';

/**
 * The establishment record (interface 2.4) of a stored venue, for search, find and the
 * details responses. Optional fields the venue lacks are omitted (never invented); arrays
 * default to `[]`; `displayName` defaults to `name`; `isChain` defaults to false (unknown
 * is reported as not a chain). `distanceMeters` and `isOpen` are computed by the caller
 * for its query. Keys are in the interface table's order, so serialised JSON reads like
 * the interface's examples. Arrays are copied: a caller may not mutate the stored venue.
 *
 * One object shape for every venue (issue 16): every key is always set, in that order, and
 * an optional field the venue lacks holds `undefined`, which JSON (JSON.stringify, the HTTP
 * adapter's serialiser) omits, and which the schema's optional fields accept. Objects built
 * with keys added only when present would take one shape per combination of fields, and the
 * code reading them would turn megamorphic.
 */
export function toEstablishment(r: VenueRecord, distanceMeters: number, isOpen: boolean): Establishment {
  return establishmentOf(fieldsOfRecord(r, scratch), distanceMeters, isOpen);
}

const scratch = new EstablishmentFields();

/**
 * {@link toEstablishment} from a venue's establishment values (a RecordSource's `fields`).
 * {@link searchEstablishmentOf} writes the same keys again, in this order: change both.
 */
export function establishmentOf(f: EstablishmentFields, distanceMeters: number, isOpen: boolean): Establishment {
  const v = f.values;
  const hours = v[FieldSlot.REGULAR_OPENING_HOURS];
  return {
    id: v[FieldSlot.ID],
    name: v[FieldSlot.NAME],
    displayName: v[FieldSlot.DISPLAY_NAME] ?? v[FieldSlot.NAME],
    formattedAddress: v[FieldSlot.FORMATTED_ADDRESS],
    location: { type: 'Point', coordinates: [f.lat, f.lon] },
    websiteUri: v[FieldSlot.WEBSITE_URI],
    contactEmail: v[FieldSlot.CONTACT_EMAIL],
    contactNumber: v[FieldSlot.CONTACT_NUMBER],
    description: v[FieldSlot.DESCRIPTION],
    primaryGenre: v[FieldSlot.PRIMARY_GENRE],
    additionalGenres: v[FieldSlot.ADDITIONAL_GENRES] ?? [],
    wordOnTheStreet: v[FieldSlot.WORD_ON_THE_STREET],
    isOpen,
    isChain: v[FieldSlot.IS_CHAIN] ?? false,
    regularOpeningHours: hours ? copyWeeklyHours(hours as WeeklyHours) : [],
    mainImageUrl: v[FieldSlot.MAIN_IMAGE_URL],
    logo: v[FieldSlot.LOGO],
    establishmentFlags: v[FieldSlot.ESTABLISHMENT_FLAGS] ?? [],
    catersFlags: v[FieldSlot.CATERS_FLAGS] ?? [],
    distanceMeters,
  } as Establishment;
}

/**
 * A search result (interface 4.1): {@link establishmentOf}'s keys in the same order, then
 * the search's own. Like it, one shape for every result: `alongRouteMeters` (PATH only) and
 * `group` (POINT only) are `undefined` when they do not apply, and so omitted from JSON.
 *
 * One object literal with every key, rather than establishmentOf's object with the search's
 * keys added (walk-through 33): a literal's hidden class is held by its boilerplate, while
 * the classes that added keys pass through are held only weakly by V8. Once no result was
 * alive (a full collection between two searches, as a service sees), they died, the
 * optimised code that built results was thrown away, and its next version, compiled over the
 * cleared feedback, deoptimised again at the first added key: the deopt check's repeat. So
 * the establishment's keys are written twice, here and in establishmentOf; the response
 * records' test (test/details/establishment-record.test.ts) holds both to one oracle, in
 * order.
 */
export function searchEstablishmentOf(
  f: EstablishmentFields,
  distanceMeters: number,
  isOpen: boolean,
  matchScore: MatchScore,
  alongRouteMeters: number | undefined,
  travel: Record<string, TravelEstimate>,
  relaxed: SearchEstablishment['relaxed'],
  group: GroupSummary | undefined,
): SearchEstablishment {
  const v = f.values;
  const hours = v[FieldSlot.REGULAR_OPENING_HOURS];
  return {
    id: v[FieldSlot.ID],
    name: v[FieldSlot.NAME],
    displayName: v[FieldSlot.DISPLAY_NAME] ?? v[FieldSlot.NAME],
    formattedAddress: v[FieldSlot.FORMATTED_ADDRESS],
    location: { type: 'Point', coordinates: [f.lat, f.lon] },
    websiteUri: v[FieldSlot.WEBSITE_URI],
    contactEmail: v[FieldSlot.CONTACT_EMAIL],
    contactNumber: v[FieldSlot.CONTACT_NUMBER],
    description: v[FieldSlot.DESCRIPTION],
    primaryGenre: v[FieldSlot.PRIMARY_GENRE],
    additionalGenres: v[FieldSlot.ADDITIONAL_GENRES] ?? [],
    wordOnTheStreet: v[FieldSlot.WORD_ON_THE_STREET],
    isOpen,
    isChain: v[FieldSlot.IS_CHAIN] ?? false,
    regularOpeningHours: hours ? copyWeeklyHours(hours as WeeklyHours) : [],
    mainImageUrl: v[FieldSlot.MAIN_IMAGE_URL],
    logo: v[FieldSlot.LOGO],
    establishmentFlags: v[FieldSlot.ESTABLISHMENT_FLAGS] ?? [],
    catersFlags: v[FieldSlot.CATERS_FLAGS] ?? [],
    distanceMeters,
    matchScore,
    alongRouteMeters,
    travel,
    relaxed,
    group,
  } as SearchEstablishment;
}

/**
 * A deep copy of weekly hours, in loops: structuredClone costs ~100x more (about 10 us per
 * venue, which dominated a 20-result search page), and `Array.prototype.slice` of a frozen
 * array (shared hours are deep-frozen: compact-records.ts) takes V8's slow path, ~1 us each.
 */
export function copyWeeklyHours(hours: WeeklyHours): WeeklyHours {
  const n = hours.length;
  const out = new Array<WeeklyHours[number]>(n);
  for (let k = 0; k < n; k++) {
    const g = hours[k]!;
    const slots = g.timeSlots;
    const m = slots.length;
    const copied = new Array<TimeSlot>(m);
    for (let j = 0; j < m; j++) {
      const t = slots[j]!;
      copied[j] = { open: t.open, close: t.close, isClosed: t.isClosed, closeNextDay: t.closeNextDay };
    }
    const days = g.days;
    const d = days.length;
    const daysCopy = new Array<WeeklyHours[number]['days'][number]>(d);
    for (let j = 0; j < d; j++) daysCopy[j] = days[j]!;
    out[k] = { days: daysCopy, timeSlots: copied };
  }
  return out;
}
