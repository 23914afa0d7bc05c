import { Type, type Static } from '@sinclair/typebox';
import { ImageSchema, LatLonPointSchema, WeeklyHoursSchema } from './common.js';
import { MenuSchema } from './menus.js';
import { VENUE_ID_MAX_LENGTH, VENUE_ID_PATTERN } from './venue-id.js';

/**
 * A venue as the engine loads it: the interface's establishment record (2.4) without the
 * per-query fields (`isOpen`, `distanceMeters`, `matchScore`), plus everything the detail
 * lookups (2.8, 2.9) and menus (2.10) return. The names the interface hides are chosen here
 * and listed in docs/data-model.md. Only `id`, `name` and `location` are required: real
 * venues have incomplete data, and a missing field is omitted, never invented.
 */
const Str = (opts: { maxLength?: number } = {}) => Type.String({ maxLength: opts.maxLength ?? 2000 });
const StrList = () => Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 100 });

/** Ratings: `rating` is string-typed in the interface ("4.5"). */
export const RatingsSchema = Type.Object(
  {
    rating: Type.Optional(Type.String({ pattern: '^[0-5](?:\\.[0-9]+)?$' })),
    userRatingCount: Type.Optional(Type.Integer({ minimum: 0 })),
  },
  { additionalProperties: false },
);

/** Basic details: object of two strings. */
export const SocialsSchema = Type.Object(
  { facebook: Type.Optional(Str()), instagram: Type.Optional(Str()) },
  { additionalProperties: false },
);

/** Basic details: the first object of 4 booleans. */
export const AccessibilitySchema = Type.Object(
  {
    wheelchairEntrance: Type.Optional(Type.Boolean()),
    wheelchairToilet: Type.Optional(Type.Boolean()),
    stepFreeAccess: Type.Optional(Type.Boolean()),
    hearingLoop: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

/** Basic details: the object of 8 booleans. */
export const AmenitiesSchema = Type.Object(
  {
    outdoorSeating: Type.Optional(Type.Boolean()),
    indoorSeating: Type.Optional(Type.Boolean()),
    dogFriendly: Type.Optional(Type.Boolean()),
    familyFriendly: Type.Optional(Type.Boolean()),
    liveMusic: Type.Optional(Type.Boolean()),
    sportsOnTv: Type.Optional(Type.Boolean()),
    takeaway: Type.Optional(Type.Boolean()),
    reservable: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

/** Basic details: the second object of 4 booleans. */
export const PaymentSchema = Type.Object(
  {
    cash: Type.Optional(Type.Boolean()),
    cards: Type.Optional(Type.Boolean()),
    contactless: Type.Optional(Type.Boolean()),
    mobile: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

/** Advanced details: object of four optional strings and one optional number. */
export const BusinessSchema = Type.Object(
  {
    operator: Type.Optional(Str()),
    brand: Type.Optional(Str()),
    brandWikidata: Type.Optional(Type.String({ pattern: '^Q[0-9]+$' })),
    companyNumber: Type.Optional(Str()),
    foundedYear: Type.Optional(Type.Integer({ minimum: 1000, maximum: 3000 })),
  },
  { additionalProperties: false },
);

/** Advanced details: object of five optional strings (identifiers in other sources). */
export const ExternalIdsSchema = Type.Object(
  {
    osm: Type.Optional(Type.String({ pattern: '^(node|way|relation)/[0-9]+$' })),
    fhrs: Type.Optional(Str()),
    wikidata: Type.Optional(Str()),
    foursquare: Type.Optional(Str()),
    google: Type.Optional(Str()),
  },
  { additionalProperties: false },
);

/** Advanced details: the array of (interface-untyped) objects. */
export const EventSchema = Type.Object(
  {
    name: Type.String({ minLength: 1 }),
    description: Type.Optional(Str()),
    /** ISO 8601 timestamps. */
    startsAt: Type.Optional(Type.String()),
    endsAt: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

export const VenueRecordSchema = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: VENUE_ID_MAX_LENGTH, pattern: VENUE_ID_PATTERN }),
    name: Type.String({ minLength: 1, maxLength: 500 }),
    displayName: Type.Optional(Type.String({ maxLength: 500 })),
    formattedAddress: Type.Optional(Str()),
    location: LatLonPointSchema,
    websiteUri: Type.Optional(Str()),
    contactEmail: Type.Optional(Str()),
    contactNumber: Type.Optional(Str()),
    description: Type.Optional(Type.String({ maxLength: 10_000 })),
    primaryGenre: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    additionalGenres: Type.Optional(StrList()),
    wordOnTheStreet: Type.Optional(Str()),
    isChain: Type.Optional(Type.Boolean()),
    regularOpeningHours: Type.Optional(WeeklyHoursSchema),
    mainImageUrl: Type.Optional(Str()),
    logo: Type.Optional(Str()),
    establishmentFlags: Type.Optional(StrList()),
    catersFlags: Type.Optional(StrList()),
    /** Atmosphere words matched by the `vibes` preference (`romantic`, `conversation`, ...). */
    vibes: Type.Optional(StrList()),
    /** IANA zone; when absent it is derived from the coordinates. */
    timeZone: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    /** The original opening-hours text (for example the OSM `opening_hours` tag), kept for reference. */
    openingHoursText: Type.Optional(Str()),
    /** What an importer approximated or left out when converting opening hours. */
    openingHoursNotes: Type.Optional(Type.Array(Str())),
    /** How sure the source is that the place exists, 0 to 1 (Overture's `confidence`); kept for reference. */
    confidence: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
    // ---- basic details (2.8)
    images: Type.Optional(Type.Array(ImageSchema, { maxItems: 1000 })),
    kitchenOpeningHours: Type.Optional(WeeklyHoursSchema),
    holidayOpeningHours: Type.Optional(WeeklyHoursSchema),
    socials: Type.Optional(SocialsSchema),
    ratings: Type.Optional(RatingsSchema),
    accessibility: Type.Optional(AccessibilitySchema),
    amenities: Type.Optional(AmenitiesSchema),
    payment: Type.Optional(PaymentSchema),
    // ---- advanced details (2.9)
    business: Type.Optional(BusinessSchema),
    externalIds: Type.Optional(ExternalIdsSchema),
    highlights: Type.Optional(StrList()),
    events: Type.Optional(Type.Array(EventSchema, { maxItems: 1000 })),
    /** Average price per head, as text ("£15-25"). */
    avgPPH: Type.Optional(Type.String({ maxLength: 100 })),
    // ---- menus (2.10)
    menus: Type.Optional(Type.Array(MenuSchema, { maxItems: 100 })),
  },
  { $id: 'VenueRecord', additionalProperties: false },
);

export type VenueRecord = Static<typeof VenueRecordSchema>;
