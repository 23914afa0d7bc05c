import { Type, type Static } from '@sinclair/typebox';
import { ImageSchema, WeeklyHoursSchema } from './common.js';
import { EstablishmentSchema } from './establishment.js';
import { MenusResponseSchema } from './menus.js';
import type { Answer } from './answer.js';
import {
  AccessibilitySchema,
  AmenitiesSchema,
  BusinessSchema,
  EventSchema,
  ExternalIdsSchema,
  PaymentSchema,
  RatingsSchema,
  SocialsSchema,
} from './venue.js';

/** At most this many images in basic details ("about 5"); advanced has them all as `photos`. */
export const BASIC_IMAGE_COUNT = 5;

/** The establishment fields of a details response: 2.4 without the per-query `distanceMeters`. */
const DetailsEstablishment = Type.Omit(EstablishmentSchema, ['distanceMeters']);

/**
 * Fields basic details add (2.8), names chosen in schema/venue.ts and listed in
 * docs/data-model.md. Arrays are always present (`[]` when the venue has none); objects are
 * omitted when the venue has no data for them, never filled with guesses.
 */
const BasicExtras = Type.Object({
  images: Type.Array(ImageSchema, { maxItems: BASIC_IMAGE_COUNT }),
  kitchenOpeningHours: WeeklyHoursSchema,
  holidayOpeningHours: WeeklyHoursSchema,
  socials: Type.Optional(SocialsSchema),
  ratings: Type.Optional(RatingsSchema),
  accessibility: Type.Optional(AccessibilitySchema),
  amenities: Type.Optional(AmenitiesSchema),
  payment: Type.Optional(PaymentSchema),
});

/** Fields advanced details add to basic (2.9). */
const AdvancedExtras = Type.Object({
  /** Every image of the venue (basic's `images` is the first 5 of these). */
  photos: Type.Array(ImageSchema),
  business: Type.Optional(BusinessSchema),
  externalIds: Type.Optional(ExternalIdsSchema),
  highlights: Type.Array(Type.String()),
  events: Type.Array(EventSchema),
  /** Average price per head, text ("£15-25"). */
  avgPPH: Type.Optional(Type.String()),
});

/** GET /v1/establishments/basic/{id} (2.8). Serialisation schema: no other field leaks. */
export const BasicDetailsSchema = Type.Composite([DetailsEstablishment, BasicExtras], { $id: 'BasicDetails', additionalProperties: false });
export type BasicDetails = Answer<Static<typeof BasicDetailsSchema>>;

/** GET /v1/establishments/advanced/{id} (2.9). */
export const AdvancedDetailsSchema = Type.Composite([DetailsEstablishment, BasicExtras, AdvancedExtras], {
  $id: 'AdvancedDetails',
  additionalProperties: false,
});
export type AdvancedDetails = Answer<Static<typeof AdvancedDetailsSchema>>;

/** GET /v1/establishments/menus/{id} (2.10): the active menus, `[]` when none. */
export const MenuListSchema = Type.Array(MenusResponseSchema.items, { $id: 'MenuList' });
export type MenuList = Answer<Static<typeof MenuListSchema>>;
