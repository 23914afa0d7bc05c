import { VenueSearchError, describeValue } from '../errors.js';
import type { AdvancedDetails, BasicDetails, MenuList } from '../schema/details.js';
import { BASIC_IMAGE_COUNT } from '../schema/details.js';
import type { VenueRecord } from '../schema/venue.js';
import type { VenueStore } from '../store/venue-store.js';
import { toEstablishment } from './establishment-record.js';
import { isOpenAt } from './open-now.js';

/**
 * Basic details (2.8) of a venue at `nowMs` (for `isOpen`): the establishment fields, the
 * first BASIC_IMAGE_COUNT images, kitchen and holiday hours, socials, ratings,
 * accessibility, amenities and payment. Missing data: arrays `[]`, objects omitted.
 * Everything returned is a copy; the stored venue cannot be changed through it.
 */
export function basicDetails(r: VenueRecord, nowMs: number): BasicDetails {
  const { distanceMeters: _notADetail, ...est } = toEstablishment(r, 0, isOpenAt(r, nowMs));
  const out: Record<string, unknown> = est;
  out.images = (r.images ?? []).slice(0, BASIC_IMAGE_COUNT).map((im) => ({ url: im.url, caption: im.caption }));
  out.kitchenOpeningHours = r.kitchenOpeningHours ? structuredClone(r.kitchenOpeningHours) : [];
  out.holidayOpeningHours = r.holidayOpeningHours ? structuredClone(r.holidayOpeningHours) : [];
  if (r.socials !== undefined) out.socials = { ...r.socials };
  if (r.ratings !== undefined) out.ratings = { ...r.ratings };
  if (r.accessibility !== undefined) out.accessibility = { ...r.accessibility };
  if (r.amenities !== undefined) out.amenities = { ...r.amenities };
  if (r.payment !== undefined) out.payment = { ...r.payment };
  return out as BasicDetails;
}

/**
 * Advanced details (2.9): everything of basic plus every image as `photos`, business,
 * external ids, highlights, events and average price per head.
 */
export function advancedDetails(r: VenueRecord, nowMs: number): AdvancedDetails {
  const out: Record<string, unknown> = basicDetails(r, nowMs);
  out.photos = (r.images ?? []).map((im) => ({ url: im.url, caption: im.caption }));
  if (r.business !== undefined) out.business = { ...r.business };
  if (r.externalIds !== undefined) out.externalIds = { ...r.externalIds };
  out.highlights = r.highlights ? [...r.highlights] : [];
  out.events = r.events ? r.events.map((e) => ({ ...e })) : [];
  if (r.avgPPH !== undefined) out.avgPPH = r.avgPPH;
  return out as AdvancedDetails;
}

/** The venue's active menus (2.10); `[]` when it has none. Prices are integer pence. */
export function menuList(r: VenueRecord): MenuList {
  return r.menus ? structuredClone(r.menus) : [];
}

/**
 * The three detail lookups by venue id over a store (or any lookup of a record by id: live
 * data, src/live); unknown ids throw `venue_not_found`.
 */
export class DetailsService {
  private readonly lookup: (id: string) => VenueRecord | null;

  constructor(records: VenueStore | ((id: string) => VenueRecord | null)) {
    if (typeof records === 'function') this.lookup = records;
    else {
      const store = records;
      this.lookup = (id) => {
        const i = store.indexOf(id);
        return i < 0 ? null : store.record(i);
      };
    }
  }

  /** The stored record of `id`; throws `venue_not_found` (param `id`) naming it. */
  recordOf(id: string): VenueRecord {
    if (typeof id !== 'string') throw new VenueSearchError('invalid_request', `id must be a venue id (a string); got ${describeValue(id)}`, { param: 'id', value: id });
    const r = this.lookup(id);
    if (r === null) throw new VenueSearchError('venue_not_found', `no venue with id ${describeValue(id)}`, { param: 'id', value: id });
    return r;
  }

  basic(id: string, nowMs: number): BasicDetails {
    return basicDetails(this.recordOf(id), nowMs);
  }

  advanced(id: string, nowMs: number): AdvancedDetails {
    return advancedDetails(this.recordOf(id), nowMs);
  }

  menus(id: string): MenuList {
    return menuList(this.recordOf(id));
  }
}

export function createDetailsService(store: VenueStore): DetailsService {
  return new DetailsService(store);
}
