/**
 * The tests' own reading of an address (written apart from src/import/address-place.ts, the
 * code under test): the UK postcode ending it and the first comma part starting with a house
 * number or range. Shared by the merge's real-data tests.
 */

/** The UK postcode at the very end of an address, spaces dropped, upper case; null if none. */
export function oraclePostcode(address: string | undefined): string | null {
  const m = /([A-Z][A-Z]?\d[A-Z\d]?) *(\d[A-Z][A-Z])$/.exec((address ?? '').toUpperCase().trim());
  return m === null ? null : m[1]! + m[2]!;
}

/** The first comma part that starts with a number ("69-71 High Street" -> [69, 71]); null if none. */
export function oracleHouseNumber(address: string | undefined): [number, number] | null {
  for (const raw of (address ?? '').split(',')) {
    const m = /^(\d+)[a-z]?(?:-(\d+)[a-z]?)?(?: |$)/i.exec(raw.trim());
    if (m) return [Number(m[1]), Number(m[2] ?? m[1])];
  }
  return null;
}

/** Same postcode in both, and house numbers that overlap when both have one. */
export function oracleSameAddress(a: string | undefined, b: string | undefined): boolean {
  const pc = oraclePostcode(a);
  if (pc === null || pc !== oraclePostcode(b)) return false;
  const na = oracleHouseNumber(a);
  const nb = oracleHouseNumber(b);
  return !(na && nb && (na[0] > nb[1] || nb[0] > na[1]));
}
