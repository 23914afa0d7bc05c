import type { VenueRecord } from '../schema/venue.js';

/**
 * Slots of the stored values an establishment record (interface 2.4) is built from, in the
 * interface table's order (LOCATION's value is kept as `lat`/`lon`, see below).
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
  COUNT,
}

/**
 * The stored values one establishment record is built from, for one venue at a time: a
 * reused scratch filled by a {@link RecordSource} without building the venue's full record
 * (compact-records.ts reads them from the bytes). `values[slot]` is the record's own value of
 * the slot's key, before the response's defaults (src/details/establishment-record.ts applies
 * them), `undefined` where the record has no such key. Two exceptions, so that the response
 * need not copy again: the three word lists are fresh arrays owned by the caller
 * (`value ? [...value] : undefined` of the record's value, see {@link ownedList}), and the
 * location is `lat`/`lon`, its `coordinates[0]` and `[1]`. Opening hours are the stored
 * value itself (frozen when shared): the response copies them.
 */
export class EstablishmentFields {
  readonly values: unknown[] = new Array<unknown>(FieldSlot.COUNT).fill(undefined);
  lat = 0.5;
  lon = 0.5;

  /** Forgets the previous venue's values. */
  clear(): void {
    const v = this.values;
    for (let k = 0; k < FieldSlot.COUNT; k++) v[k] = undefined;
  }
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

/** The slot of each key of a record's key list (FieldSlot.NONE for the keys an establishment does not show). */
export function fieldSlots(keys: readonly string[]): Uint8Array {
  return Uint8Array.from(keys, (k) => SLOTS.get(k) ?? FieldSlot.NONE);
}

/** Whether a slot holds a word list (owned by the caller: see EstablishmentFields). */
export function isListSlot(slot: FieldSlot): boolean {
  return slot === FieldSlot.ADDITIONAL_GENRES || slot === FieldSlot.ESTABLISHMENT_FLAGS || slot === FieldSlot.CATERS_FLAGS;
}

/** A word list's stored value as the fields hold it: a fresh copy, or undefined when falsy. */
export function ownedList(v: unknown): string[] | undefined {
  return v ? [...(v as string[])] : undefined;
}

/**
 * Stores `value`, the record's value of the key of `slot`, into `f`: word lists through
 * {@link ownedList}, the location as its two coordinates.
 */
export function setField(f: EstablishmentFields, slot: FieldSlot, value: unknown): void {
  if (slot === FieldSlot.LOCATION) {
    const c = (value as VenueRecord['location']).coordinates;
    f.lat = c[0];
    f.lon = c[1];
  } else if (isListSlot(slot)) {
    f.values[slot] = ownedList(value);
  } else {
    f.values[slot] = value;
  }
}

/** Fills `f` from a full record (a source that holds records as objects). */
export function fieldsOfRecord(r: VenueRecord, f: EstablishmentFields): EstablishmentFields {
  const v = f.values;
  v[FieldSlot.ID] = r.id;
  v[FieldSlot.NAME] = r.name;
  v[FieldSlot.DISPLAY_NAME] = r.displayName;
  v[FieldSlot.FORMATTED_ADDRESS] = r.formattedAddress;
  setField(f, FieldSlot.LOCATION, r.location);
  v[FieldSlot.WEBSITE_URI] = r.websiteUri;
  v[FieldSlot.CONTACT_EMAIL] = r.contactEmail;
  v[FieldSlot.CONTACT_NUMBER] = r.contactNumber;
  v[FieldSlot.DESCRIPTION] = r.description;
  v[FieldSlot.PRIMARY_GENRE] = r.primaryGenre;
  v[FieldSlot.ADDITIONAL_GENRES] = ownedList(r.additionalGenres);
  v[FieldSlot.WORD_ON_THE_STREET] = r.wordOnTheStreet;
  v[FieldSlot.IS_CHAIN] = r.isChain;
  v[FieldSlot.REGULAR_OPENING_HOURS] = r.regularOpeningHours;
  v[FieldSlot.MAIN_IMAGE_URL] = r.mainImageUrl;
  v[FieldSlot.LOGO] = r.logo;
  v[FieldSlot.ESTABLISHMENT_FLAGS] = ownedList(r.establishmentFlags);
  v[FieldSlot.CATERS_FLAGS] = ownedList(r.catersFlags);
  return f;
}
