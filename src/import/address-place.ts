/**
 * What an address says of where a venue is, as the FHRS↔OSM join reads it: the postcode
 * and the house number. Addresses are one line of comma-separated parts, as our importers
 * write them: FHRS `AddressLine1..4, PostCode` (fhrs-to-venue.ts), OSM `housename,
 * housenumber street, suburb, city postcode` (osm-to-venue.ts).
 */

/** A UK postcode ending the address's last part ("SW18 1NP", "London SW18 1NP"). */
const TRAILING_POSTCODE = /(?:^|\s)([A-Z]{1,2}[0-9][A-Z0-9]?)\s*([0-9][A-Z]{2})$/;

/** The address's postcode, upper case without spaces ("SW181NP"), or undefined. */
export function addressPostcode(address: string | undefined): string | undefined {
  const last = (address ?? '').split(',').pop()?.trim().toUpperCase() ?? '';
  const match = TRAILING_POSTCODE.exec(last);
  return match === null ? undefined : `${match[1]}${match[2]}`;
}

/** A part starting with a house number or range, a letter allowed after each ("69", "69-71 High Street", "12a"; not "1st Floor"). */
const HOUSE_NUMBER = /^([0-9]+)[A-Za-z]?(?:\s*-\s*([0-9]+)[A-Za-z]?)?(?=[\s,]|$)/;

/** A part of words ending with a house number or range, street first as Veggiekarte's import writes it ("Grove Vale 72", "High Street 69-71"). */
const TRAILING_HOUSE_NUMBER = /^\p{L}[^,]*\s([0-9]+)[A-Za-z]?(?:\s*-\s*([0-9]+)[A-Za-z]?)?$/u;

/**
 * The first house number (or range) of the address as [first, last]: of the first part that
 * starts with one, else of the first part that ends with one (Veggiekarte's "Grove Vale 72":
 * read as no number until audit 68f F1, so it never disagreed with FHRS's "94, Grove Vale");
 * undefined when no part has one.
 */
export function addressHouseNumbers(address: string | undefined): [number, number] | undefined {
  const parts = (address ?? '').split(',').map((part) => part.trim());
  for (const pattern of [HOUSE_NUMBER, TRAILING_HOUSE_NUMBER]) {
    for (const part of parts) {
      const match = pattern.exec(part);
      if (match === null) continue;
      const first = Number(match[1]);
      const last = match[2] === undefined ? first : Number(match[2]);
      return first <= last ? [first, last] : [last, first];
    }
  }
  return undefined;
}

/**
 * True when both addresses have the same postcode and their house numbers do not disagree:
 * both ranges overlap ("69" and "69-71"), or one address has none. Euston Tap's lodges,
 * 188 and 190 Euston Road, NW1 2EF, disagree.
 */
export function sameAddressPlace(a: string | undefined, b: string | undefined): boolean {
  const postcode = addressPostcode(a);
  if (postcode === undefined || postcode !== addressPostcode(b)) return false;
  const na = addressHouseNumbers(a);
  const nb = addressHouseNumbers(b);
  return na === undefined || nb === undefined || (na[0] <= nb[1] && nb[0] <= na[1]);
}
