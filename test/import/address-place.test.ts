import { describe, expect, it } from 'vitest';
import { addressHouseNumbers, addressPostcode, sameAddressPlace } from '../../src/import/address-place.js';

/** Hand-read addresses from the London extracts (audit 68e F3): what the FHRS↔OSM join reads of them. */
describe('address-place: postcode and house number of an imported address', () => {
  it('the postcode ends the last part, in FHRS form ("..., SW18 1NP") and OSM form ("London SW18 1NP")', () => {
    expect(addressPostcode('35 Putney Bridge Road, London, SW18 1NP')).toBe('SW181NP');
    expect(addressPostcode('35 Putney Bridge Road, London SW18 1NP')).toBe('SW181NP');
    expect(addressPostcode('Watts Lane, Chislehurst')).toBeUndefined();
    expect(addressPostcode(undefined)).toBeUndefined();
  });

  it('the house number is the first part starting with one, a range read whole; "1st Floor" is no number', () => {
    expect(addressHouseNumbers('69-71 High Street, Teddington, TW11 8HA')).toEqual([69, 71]);
    expect(addressHouseNumbers('Dean Swift, 10, Gainsford Street, SE1 2NE')).toEqual([10, 10]);
    expect(addressHouseNumbers('1st Floor, 20a Fonthill Road, N4 3HU')).toEqual([20, 20]);
    expect(addressHouseNumbers('Watts Lane, Chislehurst, BR7 5PJ')).toBeUndefined();
  });

  it('audit 68f F1: a number after the street (Veggiekarte\'s form) is read, and disagrees with another', () => {
    // Mirash Tandoori: OSM way/62223077 "Grove Vale 72" (Veggiekarte), FHRS 739758 "94, Grove Vale", SE22 8DT, 139 m apart
    expect(addressHouseNumbers('Grove Vale 72, London SE22 8DT')).toEqual([72, 72]);
    expect(addressHouseNumbers('High Street 69-71, Teddington TW11 8HA')).toEqual([69, 71]);
    expect(sameAddressPlace('Grove Vale 72, London SE22 8DT', '94, Grove Vale, London, SE22 8DT')).toBe(false);
    // a number leading a part is still taken first; a postcode's digits are no number
    expect(addressHouseNumbers('Unit 3, 20 Fonthill Road, N4 3HU')).toEqual([20, 20]);
    expect(addressHouseNumbers('Watts Lane, Chislehurst BR7 5PJ')).toBeUndefined();
  });

  it('same place: same postcode and overlapping numbers; Euston Tap 188 and 190 Euston Road are two', () => {
    expect(sameAddressPlace('69 High Street, Teddington TW11 8HA', '69-71 High Street, Teddington, TW11 8HA')).toBe(true);
    expect(sameAddressPlace('West Lodge, 190 Euston Road, London NW1 2EF', 'East Lodge, 188 Euston Road, NW1 2EF')).toBe(false);
    expect(sameAddressPlace('Watts Lane, Chislehurst BR7 5PJ', 'Watts Lane, Chislehurst, BR7 5PJ')).toBe(true);
    expect(sameAddressPlace('35 Putney Bridge Road, London SW18 1NP', '35 Putney Bridge Road, London, SW18 1NQ')).toBe(false);
    expect(sameAddressPlace('35 Putney Bridge Road', '35 Putney Bridge Road')).toBe(false);
  });
});
