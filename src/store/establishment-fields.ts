import type { VenueRecord } from '../schema/venue.js';

/**
 * The stored values an establishment record (interface 2.4) is built from, for one venue at a
 * time: a reused scratch object of one fixed shape, filled by a {@link RecordSource} without
 * building the venue's full record (compact-records.ts reads them from the bytes). Values are
 * the record's own, before the response's defaults (src/details/establishment-record.ts
 * applies them): `undefined` where the record has no such key. Two exceptions, so the
 * response need not copy again: the three word lists are fresh arrays owned by the caller
 * (`value ? [...value] : undefined` of the record's value), and `lat`/`lon` are the
 * location's `coordinates[0]` and `[1]`. `regularOpeningHours` is the stored value itself
 * (frozen when shared): the response copies it.
 */
export class EstablishmentFields {
  id: string | undefined = '';
  name: string | undefined = '';
  displayName: string | undefined = undefined;
  formattedAddress: string | undefined = undefined;
  lat: number = 0;
  lon: number = 0;
  websiteUri: string | undefined = undefined;
  contactEmail: string | undefined = undefined;
  contactNumber: string | undefined = undefined;
  description: string | undefined = undefined;
  primaryGenre: string | undefined = undefined;
  additionalGenres: string[] | undefined = undefined;
  wordOnTheStreet: string | undefined = undefined;
  isChain: boolean | undefined = undefined;
  regularOpeningHours: VenueRecord['regularOpeningHours'] = undefined;
  mainImageUrl: string | undefined = undefined;
  logo: string | undefined = undefined;
  establishmentFlags: string[] | undefined = undefined;
  catersFlags: string[] | undefined = undefined;

  /** Forgets the previous venue's values (every optional back to undefined). */
  clear(): void {
    this.id = undefined;
    this.name = undefined;
    this.displayName = undefined;
    this.formattedAddress = undefined;
    this.websiteUri = undefined;
    this.contactEmail = undefined;
    this.contactNumber = undefined;
    this.description = undefined;
    this.primaryGenre = undefined;
    this.additionalGenres = undefined;
    this.wordOnTheStreet = undefined;
    this.isChain = undefined;
    this.regularOpeningHours = undefined;
    this.mainImageUrl = undefined;
    this.logo = undefined;
    this.establishmentFlags = undefined;
    this.catersFlags = undefined;
  }
}

/**
 * Slots of {@link EstablishmentFields} by record key, for a reader that walks a record's keys
 * (compact-records.ts); FIELD_NONE for a key the establishment does not show.
 */
export const enum FieldSlot {
  NONE = 0,
  ID,
  NAME,
  DISPLAY_NAME,
  FORMATTED_ADDRESS,
  LOCATION,
  WEBSITE_URI,
  CONTACT_EMAIL,
  CONTACT_NUMBER,
  DESCRIPTION,
  PRIMARY_GENRE,
  ADDITIONAL_GENRES,
  WORD_ON_THE_STREET,
  IS_CHAIN,
  REGULAR_OPENING_HOURS,
  MAIN_IMAGE_URL,
  LOGO,
  ESTABLISHMENT_FLAGS,
  CATERS_FLAGS,
}

const SLOTS: ReadonlyMap<string, FieldSlot> = new Map([
  ['id', FieldSlot.ID],
  ['name', FieldSlot.NAME],
  ['displayName', FieldSlot.DISPLAY_NAME],
  ['formattedAddress', FieldSlot.FORMATTED_ADDRESS],
  ['location', FieldSlot.LOCATION],
  ['websiteUri', FieldSlot.WEBSITE_URI],
  ['contactEmail', FieldSlot.CONTACT_EMAIL],
  ['contactNumber', FieldSlot.CONTACT_NUMBER],
  ['description', FieldSlot.DESCRIPTION],
  ['primaryGenre', FieldSlot.PRIMARY_GENRE],
  ['additionalGenres', FieldSlot.ADDITIONAL_GENRES],
  ['wordOnTheStreet', FieldSlot.WORD_ON_THE_STREET],
  ['isChain', FieldSlot.IS_CHAIN],
  ['regularOpeningHours', FieldSlot.REGULAR_OPENING_HOURS],
  ['mainImageUrl', FieldSlot.MAIN_IMAGE_URL],
  ['logo', FieldSlot.LOGO],
  ['establishmentFlags', FieldSlot.ESTABLISHMENT_FLAGS],
  ['catersFlags', FieldSlot.CATERS_FLAGS],
]);

/** The slot of each key of a record's key list (FieldSlot.NONE for the others). */
export function fieldSlots(keys: readonly string[]): Uint8Array {
  return Uint8Array.from(keys, (k) => SLOTS.get(k) ?? FieldSlot.NONE);
}

/** A word list's stored value as the fields hold it: a fresh copy, or undefined when falsy. */
export function ownedList(v: unknown): string[] | undefined {
  return v ? [...(v as string[])] : undefined;
}

/**
 * Stores `value`, the record's value of the key of `slot`, into `f` (word lists through
 * {@link ownedList}; the location as its two coordinates).
 */
export function setField(f: EstablishmentFields, slot: FieldSlot, value: unknown): void {
  switch (slot) {
    case FieldSlot.ID:
      f.id = value as string | undefined;
      break;
    case FieldSlot.NAME:
      f.name = value as string | undefined;
      break;
    case FieldSlot.DISPLAY_NAME:
      f.displayName = value as string | undefined;
      break;
    case FieldSlot.FORMATTED_ADDRESS:
      f.formattedAddress = value as string | undefined;
      break;
    case FieldSlot.LOCATION: {
      const c = (value as VenueRecord['location']).coordinates;
      f.lat = c[0];
      f.lon = c[1];
      break;
    }
    case FieldSlot.WEBSITE_URI:
      f.websiteUri = value as string | undefined;
      break;
    case FieldSlot.CONTACT_EMAIL:
      f.contactEmail = value as string | undefined;
      break;
    case FieldSlot.CONTACT_NUMBER:
      f.contactNumber = value as string | undefined;
      break;
    case FieldSlot.DESCRIPTION:
      f.description = value as string | undefined;
      break;
    case FieldSlot.PRIMARY_GENRE:
      f.primaryGenre = value as string | undefined;
      break;
    case FieldSlot.ADDITIONAL_GENRES:
      f.additionalGenres = ownedList(value);
      break;
    case FieldSlot.WORD_ON_THE_STREET:
      f.wordOnTheStreet = value as string | undefined;
      break;
    case FieldSlot.IS_CHAIN:
      f.isChain = value as boolean | undefined;
      break;
    case FieldSlot.REGULAR_OPENING_HOURS:
      f.regularOpeningHours = value as VenueRecord['regularOpeningHours'];
      break;
    case FieldSlot.MAIN_IMAGE_URL:
      f.mainImageUrl = value as string | undefined;
      break;
    case FieldSlot.LOGO:
      f.logo = value as string | undefined;
      break;
    case FieldSlot.ESTABLISHMENT_FLAGS:
      f.establishmentFlags = ownedList(value);
      break;
    case FieldSlot.CATERS_FLAGS:
      f.catersFlags = ownedList(value);
      break;
    default:
      break;
  }
}

/** Fills `f` from a full record (a source that holds records as objects). */
export function fieldsOfRecord(r: VenueRecord, f: EstablishmentFields): EstablishmentFields {
  f.clear();
  f.id = r.id;
  f.name = r.name;
  f.displayName = r.displayName;
  f.formattedAddress = r.formattedAddress;
  setField(f, FieldSlot.LOCATION, r.location);
  f.websiteUri = r.websiteUri;
  f.contactEmail = r.contactEmail;
  f.contactNumber = r.contactNumber;
  f.description = r.description;
  f.primaryGenre = r.primaryGenre;
  f.additionalGenres = ownedList(r.additionalGenres);
  f.wordOnTheStreet = r.wordOnTheStreet;
  f.isChain = r.isChain;
  f.regularOpeningHours = r.regularOpeningHours;
  f.mainImageUrl = r.mainImageUrl;
  f.logo = r.logo;
  f.establishmentFlags = ownedList(r.establishmentFlags);
  f.catersFlags = ownedList(r.catersFlags);
  return f;
}
