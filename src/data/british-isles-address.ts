/**
 * Whether a venue's address says it is in the British Isles (the United Kingdom, Ireland, the
 * Isle of Man, the Channel Islands), for the check of coordinates given in the wrong order
 * (venues-at-sea.ts): a full UK postcode ("IM9 3DS", "SW1A 1AA": outward code, space optional,
 * inward code), an Irish Eircode ("D02 AF30": routing key, unique identifier), or a last
 * element naming the country ("..., UK", "..., Ireland", "..., GB" as Overture writes it).
 * Upper-case postcodes only (as Royal Mail and An Post write them), so that ordinary words do
 * not pass as one.
 */
const UK_POSTCODE = /\b[A-Z]{1,2}\d[A-Z\d]? ?\d[ABD-HJLNP-UW-Z]{2}\b/;
const EIRCODE = /\b[ACDEFHKNPRTVWXY]\d[\dW] ?[\dACDEFHKNPRTVWXY]{4}\b/;
const COUNTRY = /,\s*(UK|GB|IE|IM|JE|GG|United Kingdom|Great Britain|England|Scotland|Wales|Northern Ireland|Ireland|Isle of Man|Jersey|Guernsey)\.?\s*$/i;

export function isBritishIslesAddress(address: string): boolean {
  return UK_POSTCODE.test(address) || EIRCODE.test(address) || COUNTRY.test(address);
}

/** The time zones of the British Isles as the engine derives them (tz-lookup). */
export const BRITISH_ISLES_ZONES: ReadonlySet<string> = new Set(['Europe/London', 'Europe/Dublin', 'Europe/Isle_of_Man', 'Europe/Jersey', 'Europe/Guernsey']);
