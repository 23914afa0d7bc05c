import type { WeeklyHours } from '../schema/common.js';
import type { Establishment } from '../schema/establishment.js';
import type { VenueRecord } from '../schema/venue.js';

/**
 * The establishment record (interface 2.4) of a stored venue, for search, find and the
 * details responses. Optional fields the venue lacks are omitted (never invented); arrays
 * default to `[]`; `displayName` defaults to `name`; `isChain` defaults to false (unknown
 * is reported as not a chain). `distanceMeters` and `isOpen` are computed by the caller
 * for its query. Keys are set in the interface table's order, so serialised JSON reads like
 * the interface's examples. Arrays are copied: a caller may not mutate the stored venue.
 */
export function toEstablishment(r: VenueRecord, distanceMeters: number, isOpen: boolean): Establishment {
  const out: Record<string, unknown> = { id: r.id, name: r.name, displayName: r.displayName ?? r.name };
  if (r.formattedAddress !== undefined) out.formattedAddress = r.formattedAddress;
  out.location = { type: 'Point', coordinates: [r.location.coordinates[0], r.location.coordinates[1]] };
  if (r.websiteUri !== undefined) out.websiteUri = r.websiteUri;
  if (r.contactEmail !== undefined) out.contactEmail = r.contactEmail;
  if (r.contactNumber !== undefined) out.contactNumber = r.contactNumber;
  if (r.description !== undefined) out.description = r.description;
  if (r.primaryGenre !== undefined) out.primaryGenre = r.primaryGenre;
  out.additionalGenres = r.additionalGenres ? [...r.additionalGenres] : [];
  if (r.wordOnTheStreet !== undefined) out.wordOnTheStreet = r.wordOnTheStreet;
  out.isOpen = isOpen;
  out.isChain = r.isChain ?? false;
  out.regularOpeningHours = r.regularOpeningHours ? copyWeeklyHours(r.regularOpeningHours) : [];
  if (r.mainImageUrl !== undefined) out.mainImageUrl = r.mainImageUrl;
  if (r.logo !== undefined) out.logo = r.logo;
  out.establishmentFlags = r.establishmentFlags ? [...r.establishmentFlags] : [];
  out.catersFlags = r.catersFlags ? [...r.catersFlags] : [];
  out.distanceMeters = distanceMeters;
  return out as Establishment;
}

/**
 * A deep copy of weekly hours. Written out because structuredClone costs ~100x more (about
 * 10 us per venue), which dominated a 20-result search page.
 */
export function copyWeeklyHours(hours: WeeklyHours): WeeklyHours {
  return hours.map((g) => ({
    days: g.days.slice(),
    timeSlots: g.timeSlots.map((t) => ({ open: t.open, close: t.close, isClosed: t.isClosed, closeNextDay: t.closeNextDay })),
  }));
}
