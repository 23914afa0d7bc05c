/**
 * Derives `gb-places.tsv` (the embedded GB gazetteer, read by src/places/gazetteer.ts) from
 * the two GeoNames files described in NOTICE.md:
 *
 *   npx tsx data/gazetteer/build-gb-gazetteer.ts ../shared/data/geonames-gb [output file]
 *
 * Output rows (tab-separated, UTF-8, after one `#` comment line and a header line):
 * - `A id nation counties`: one area, numbered from 0 in file order, before every P row:
 *   GeoNames' admin1 name (England, Scotland, Wales, Northern Ireland; `-` for the Isle of
 *   Man and the Channel Islands) and its admin2 names (county or unitary authority), `;`
 *   between them, `-` when none. A place's areas are one such row (a few hundred distinct
 *   ones), not strings repeated on 27,000 rows.
 * - `P name lat lon feature population outcodes precise area districts`: one named place;
 *   `area` is an A row's id (`-` when GeoNames gives none). The resolver reads it for a name
 *   qualified after a comma ("St Ives, Cornwall"). `districts` is the distinct outward codes
 *   of the postal rows that name the place (merged into it, below), sorted, `,` between them,
 *   `-` when none: its own postcode districts, which decide its former county
 *   (src/places/loose-area.ts) better than the nearest district's point (audit 67f F1).
 *   - Every row of `gb_places_geonames.csv` (GeoNames cities1000: towns, cities, admin
 *     seats and some districts) except those outside the British Isles (Dhekelia, Cyprus):
 *     its own point, GeoNames feature code and population; precise = 1; its admin1 and
 *     admin2 names, then the postal rows' admin2 names merged into it when they differ
 *     (the postal file names ceremonial counties: Bolton's "Borough of Bolton" and "Greater
 *     Manchester").
 *   - Every place name of the postal file (`gb_postal_outcode_places.tsv`: one row per
 *     outward code and place name, e.g. NW1 Camden Town) that the first file lacks. A
 *     name's rows are split into places by single linkage (rows within LINK_METERS of each
 *     other are one place: Richmond TW9 and Richmond DL10 are two); a place's point is its
 *     most frequent row point (ties: best GeoNames accuracy, then nearest the rows' mean),
 *     `outcodes` its number of rows, precise = 1 when that point has GeoNames accuracy 4
 *     (the point of the GeoNames feature of that name) rather than 1 to 3 (an estimate
 *     shared by several names of the district); its areas are its rows' most frequent
 *     admin1 name and their admin2 names, most frequent first. A postal place within MERGE_METERS of a
 *     first-file place of the same name (TOWN_REACH_METERS of a town of TOWN_POPULATION or
 *     more) is that place: only its outcode count is added.
 *     A row at a town point (below) that is not the place's own point takes its outward
 *     code's point, at accuracy 0 (Aldgate, EC3: the City, not Charing Cross).
 *     A place placed only at stray district estimates (STRAY_ESTIMATE_METERS) is left out.
 *     A row of a non-geographic outward code (PO boxes, large users: NON_GEOGRAPHIC_OUTCODES
 *     in postal-data-exceptions.ts) gives no point to a place that a geographic district's
 *     row also names: its point may be a sorting office's or a company's (SW95's
 *     "Wandsworth" lies at Nine Elms, 5.2 km from Wandsworth's SW18 row, one place by
 *     LINK_METERS). Such a place takes its point from its geographic rows (ties broken by
 *     the mean of all its rows), and is the first-file place within reach of that point or
 *     of one of its non-geographic rows (BB94's "Earby" lies at Earby's own point, BB8's 6 km
 *     off). A place only such districts name (BS80's Filton, DH97's Belmont by Durham,
 *     CM98's Springfield by Chelmsford) keeps their point: there is no other. A row the
 *     source misnames (MISNAMED_POSTAL_ROWS: PA80's "Castlebay") names no place at all.
 * - `S name lat lon code area`: one postal place so left out, at the estimate it was placed
 *   at (IM4's St John's, W1's Park Lane), with its outward code (the most frequent of its
 *   rows) and its area as a P row's, after the P rows: not a place to search, but the
 *   resolver reads it to refuse a bare name whose remaining places are far approximate points
 *   (audit 65a F13; see FAR_APPROXIMATE_METERS in src/places/default-resolver.ts), and to say
 *   that a name it holds is known only by that estimate rather than unknown or elsewhere
 *   ("St John's, Isle of Man", "Glen Vine").
 * - `O code lat lon - 0 rows precise`: one outward postcode (`NW1`). The file names outward
 *   codes only (no sectors or full postcodes), so a district's point comes from its rows,
 *   or else from the districts around it in the postcode hierarchy:
 *   1. Its placed rows (placedRows: GeoNames accuracy 3 or 4, only the 4s when it has any,
 *      none at a town point): the mean of their points within OUTCODE_CLUSTER_METERS of
 *      their coordinate-wise median (an outlying place dropped); precise = 1.
 *   2. None: the mean of its sub-districts' rule-1 points (EC3 -> EC3A, EC3M, ... EC3V).
 *   3. None: its parent district's rule-1 or rule-2 point (W1D -> W1, EC4A -> EC4).
 *   4. None: rule 1's centre over all its rows (L1 -> Liverpool's point, a district of the
 *      town somewhere around it; E12 -> its accuracy-1 estimate).
 *   Rules 2 to 4 give precise = 0: an approximate point, which the resolver lets the
 *   venues' own postcodes override. Every outward code of the file gets a row. A
 *   non-geographic code (see above) still resolves, at its rows' point, but with precise =
 *   0 (it has no area: its mail is delivered to PO boxes or one firm), and is no sub-district
 *   in rule 2 (EC1P is not part of EC1's area).
 *   A town point is one that rows of TOWN_POINT_CODES or more outward codes share: their
 *   post town's own point (GeoNames' London point, Charing Cross, for 42 central London
 *   districts; Belfast's for 18), which is the centre of none of them. Accuracy 4 is the
 *   point of the named place's GeoNames feature; lower ones are estimates (W1's accuracy-3
 *   rows all lie 7 km away, in Deptford).
 * Names are compared by placeKey (src/places/place-name.ts), as the resolver does.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { nearDistanceMeters } from '../../src/geo/distance.js';
import { placeKey } from '../../src/places/place-name.js';
import { MISNAMED_POSTAL_ROWS, NON_GEOGRAPHIC_OUTCODES } from './postal-data-exceptions.js';

const LINK_METERS = 10_000;
const MERGE_METERS = 5_000;
/**
 * A postal place within this distance of a first-file place of the same name with
 * TOWN_POPULATION people or more is that town: a town's post-town rows are spread over the
 * districts around it (Sheffield's rows 14 to 17 km north of it, Huntingdon's 14 km). Not
 * further: real villages named after a town lie 25 to 30 km from it (Farnworth by Widnes,
 * Oldbury in Shropshire, Crewe by Farndon).
 */
const TOWN_REACH_METERS = 20_000;
const TOWN_POPULATION = 10_000;
const OUTCODE_CLUSTER_METERS = 10_000;
/**
 * GeoNames postal accuracy (blank read as 0): 4 = the point of the named place's own
 * GeoNames feature; 3 = an estimate for the district's names; 1 = a rougher estimate.
 */
const FEATURE_ACCURACY = 4;
const PLACED_ACCURACY = 3;
/** Rows of this many outward codes or more at one point: their post town's point (see the header). */
const TOWN_POINT_CODES = 3;
/**
 * A row of accuracy 1 to 3 at a point that this many names of its district share (not a
 * town point) is GeoNames' estimate for the district, not a place's point. Such an estimate
 * farther than STRAY_ESTIMATE_METERS (find's default radius) from every surveyed row
 * (accuracy 4) of its district is not even near a known place of it: IM4's 54.2195,-4.7986,
 * the point of 15 IM4 names, lies in the Irish Sea 10.7 km from St John's and 11.6 km from
 * Foxdale, the nearest surveyed IM4 place. A postal place placed only at such stray points
 * is left out (its name is then unknown unless another source knows it); one placed at an
 * estimate nearer its district's places keeps it, marked imprecise.
 */
const DISTRICT_ESTIMATE_NAMES = 2;
const STRAY_ESTIMATE_METERS = 5_000;
/** Rows outside the British Isles and the Channel Islands are dropped (Dhekelia). */
const inIsles = (lat: number, lon: number) => lat >= 49 && lat <= 61 && lon >= -9 && lon <= 2;

interface PostalRow {
  code: string;
  name: string;
  lat: number;
  lon: number;
  accuracy: number;
  /** GeoNames admin1 and admin2 names ('' when blank). */
  nation: string;
  county: string;
}
interface PlaceRow {
  name: string;
  lat: number;
  lon: number;
  feature: string;
  population: number;
  outcodes: number;
  /** The distinct outward codes of the postal rows merged into the place. */
  districts: Set<string>;
  precise: number;
  /** GeoNames admin1 name ('' when none). */
  nation: string;
  /** GeoNames admin2 names, distinct, the place's own first. */
  counties: string[];
}

const sourceDir = process.argv[2];
if (sourceDir === undefined) throw new Error('usage: build-gb-gazetteer.ts <folder with the GeoNames GB files> [output file]');
const outFile = process.argv[3] ?? fileURLToPath(new URL('./gb-places.tsv', import.meta.url));

const cityRows = parse(readFileSync(join(sourceDir, 'gb_places_geonames.csv'), 'utf8'), { columns: true }) as Record<string, string>[];
const places: PlaceRow[] = [];
const placesByKey = new Map<string, PlaceRow[]>();
for (const r of cityRows) {
  const lat = Number(r['lat']);
  const lon = Number(r['lon']);
  if (!inIsles(lat, lon)) continue;
  const p: PlaceRow = { name: r['name']!, lat, lon, feature: r['feature_code'] ?? '', population: Number(r['population'] || 0), outcodes: 0, districts: new Set(), precise: 1, nation: r['admin1_name'] ?? '', counties: r['admin2_name'] ? [r['admin2_name']] : [] };
  places.push(p);
  pushTo(placesByKey, placeKey(p.name), p);
}

const postal: PostalRow[] = [];
for (const line of readFileSync(join(sourceDir, 'gb_postal_outcode_places.tsv'), 'utf8').split('\n')) {
  const f = line.split('\t');
  if (f.length < 11) continue;
  const row = { code: f[1]!.trim().toUpperCase(), name: f[2]!.trim(), lat: Number(f[9]), lon: Number(f[10]), accuracy: Number(f[11] || 0), nation: f[3]!.trim(), county: f[5]!.trim() };
  if (row.name === '' || !Number.isFinite(row.lat) || !Number.isFinite(row.lon)) continue;
  postal.push(row);
}

// Outward codes.
const byCode = new Map<string, PostalRow[]>();
for (const r of postal) pushTo(byCode, r.code, r);
const codesAtPoint = new Map<string, Set<string>>();
for (const r of postal) {
  const k = pointKey(r);
  const codes = codesAtPoint.get(k);
  if (codes === undefined) codesAtPoint.set(k, new Set([r.code]));
  else codes.add(r.code);
}
const atTownPoint = (r: PostalRow) => codesAtPoint.get(pointKey(r))!.size >= TOWN_POINT_CODES;
const namesAtDistrictPoint = new Map<string, Set<string>>();
for (const r of postal) pushTo1(namesAtDistrictPoint, `${r.code} ${pointKey(r)}`, placeKey(r.name));
/** See DISTRICT_ESTIMATE_NAMES (read on the file's own rows, before town points are replaced). */
const isStrayEstimate = (r: PostalRow) =>
  r.accuracy >= 1 &&
  r.accuracy < FEATURE_ACCURACY &&
  !atTownPoint(r) &&
  namesAtDistrictPoint.get(`${r.code} ${pointKey(r)}`)!.size >= DISTRICT_ESTIMATE_NAMES &&
  farFromSurveyed(r);
function farFromSurveyed(r: PostalRow): boolean {
  const surveyed = byCode.get(r.code)!.filter((s) => s.accuracy >= FEATURE_ACCURACY);
  return surveyed.length > 0 && surveyed.every((s) => nearDistanceMeters(s.lat, s.lon, r.lat, r.lon) > STRAY_ESTIMATE_METERS);
}
let strayEstimateNames = 0;
/** Rule-1 points, then rule-2 points of the codes without one (rule 3 reads both). */
const rule1 = new Map<string, { lat: number; lon: number }>();
for (const [code, rows] of byCode) {
  const placed = placedRows(rows);
  if (placed.length > 0) rule1.set(code, districtCentre(placed));
}
const rule2 = new Map<string, { lat: number; lon: number }>();
for (const code of byCode.keys()) {
  if (rule1.has(code)) continue;
  const subDistricts = [...rule1.keys()].filter((c) => c.length === code.length + 1 && c.startsWith(code) && /[A-Z]$/.test(c) && !NON_GEOGRAPHIC_OUTCODES.has(c));
  if (subDistricts.length > 0) rule2.set(code, meanPoint(subDistricts.map((c) => rule1.get(c)!)));
}
const outcodes: Array<{ code: string; lat: number; lon: number; rows: number; precise: number }> = [];
const outcodePoint = new Map<string, { lat: number; lon: number }>();
for (const [code, rows] of byCode) {
  const parentCode = /[A-Z]$/.test(code) ? code.slice(0, -1) : '';
  const own = rule1.get(code);
  const point = own ?? rule2.get(code) ?? rule1.get(parentCode) ?? rule2.get(parentCode) ?? districtCentre(rows);
  outcodes.push({ code, ...point, rows: rows.length, precise: own !== undefined && !NON_GEOGRAPHIC_OUTCODES.has(code) ? 1 : 0 });
  outcodePoint.set(code, point);
}

// Postal place names, by key, split into places by single linkage.
const postalByKey = new Map<string, PostalRow[]>();
// A row at a town point that is not the named place's own point (accuracy 4, or a GeoNames
// place of that name within MERGE_METERS: "Cambridge" in CB21) says only "somewhere in this
// post town": it takes its outward code's point instead, at accuracy 0 (below every real
// estimate). Aldgate (EC3) is placed in the City rather than at Charing Cross.
// A misnamed row (see the header) names no place.
for (const r of postal.filter((row) => !MISNAMED_POSTAL_ROWS.has(`${row.code} ${row.name}`))) {
  const key = placeKey(r.name);
  pushTo(postalByKey, key, atTownPoint(r) && !isOwnPoint(r, key) ? { ...r, ...outcodePoint.get(r.code)!, accuracy: 0 } : r);
}
/** The postal places left out as placed only at stray estimates: their S rows. */
const strays: Array<{ name: string; lat: number; lon: number; code: string; nation: string; counties: string[] }> = [];
const strayEstimateRows = new Set(postal.filter(isStrayEstimate).map((r) => `${r.code}\t${r.name}`));
function isOwnPoint(r: PostalRow, key: string): boolean {
  return r.accuracy >= FEATURE_ACCURACY || (placesByKey.get(key) ?? []).some((p) => nearDistanceMeters(p.lat, p.lon, r.lat, r.lon) <= MERGE_METERS);
}
for (const [key, rows] of postalByKey) {
  if (key === '') continue;
  for (const cluster of singleLinkage(rows, LINK_METERS)) {
    // Geographic districts' rows place the place when it has any (see the header); a
    // non-geographic district's row still tells which first-file place it names.
    const geographic = cluster.filter((r) => !NON_GEOGRAPHIC_OUTCODES.has(r.code));
    const point = representative(geographic.length > 0 ? geographic : cluster, cluster);
    const naming = [point, ...cluster.filter((r) => NON_GEOGRAPHIC_OUTCODES.has(r.code))];
    const known = placesByKey.get(key) ?? [];
    let merged: PlaceRow | null = null;
    let best = Infinity;
    for (const p of known) {
      const d = Math.min(...naming.map((q) => nearDistanceMeters(p.lat, p.lon, q.lat, q.lon)));
      const reach = p.population >= TOWN_POPULATION ? TOWN_REACH_METERS : MERGE_METERS;
      if (d <= reach && d < best) [merged, best] = [p, d];
    }
    if (merged !== null) {
      merged.outcodes += cluster.length;
      for (const r of cluster) merged.districts.add(r.code);
      for (const county of byFrequency(cluster.map((r) => r.county))) if (!merged.counties.includes(county)) merged.counties.push(county);
      continue;
    }
    // A place GeoNames places only at stray district estimates has no point near it: not a
    // place of the gazetteer (see STRAY_ESTIMATE_METERS).
    if (cluster.every((r) => strayEstimateRows.has(`${r.code}\t${r.name}`))) {
      strayEstimateNames++;
      strays.push({
        name: mostCommon(cluster.map((r) => r.name)),
        lat: point.lat,
        lon: point.lon,
        code: mostCommon(cluster.map((r) => r.code)),
        nation: byFrequency(cluster.map((r) => r.nation))[0] ?? '',
        counties: byFrequency(cluster.map((r) => r.county)),
      });
      continue;
    }
    const precise = cluster.some((r) => r.lat === point.lat && r.lon === point.lon && r.accuracy === 4) ? 1 : 0;
    const p: PlaceRow = { name: mostCommon(cluster.map((r) => r.name)), lat: point.lat, lon: point.lon, feature: '', population: 0, outcodes: cluster.length, districts: new Set(cluster.map((r) => r.code)), precise, nation: byFrequency(cluster.map((r) => r.nation))[0] ?? '', counties: byFrequency(cluster.map((r) => r.county)) };
    places.push(p);
  }
}

/** Rule 1's rows: placed ones (accuracy 3 or 4), not at a town point; only the 4s when there are any. */
function placedRows(rows: readonly PostalRow[]): PostalRow[] {
  const placed = rows.filter((r) => r.accuracy >= PLACED_ACCURACY && !atTownPoint(r));
  const features = placed.filter((r) => r.accuracy >= FEATURE_ACCURACY);
  return features.length > 0 ? features : placed;
}

/** The mean of the points within OUTCODE_CLUSTER_METERS of the rows' coordinate-wise median. */
function districtCentre(rows: readonly PostalRow[]): { lat: number; lon: number } {
  const mLat = median(rows.map((r) => r.lat));
  const mLon = median(rows.map((r) => r.lon));
  const near = rows.filter((r) => nearDistanceMeters(mLat, mLon, r.lat, r.lon) <= OUTCODE_CLUSTER_METERS);
  return meanPoint(near.length > 0 ? near : rows);
}

function meanPoint(points: ReadonlyArray<{ lat: number; lon: number }>): { lat: number; lon: number } {
  return { lat: mean(points.map((p) => p.lat)), lon: mean(points.map((p) => p.lon)) };
}

places.sort((a, b) => cmp(placeKey(a.name), placeKey(b.name)) || a.lat - b.lat || a.lon - b.lon);
strays.sort((a, b) => cmp(placeKey(a.name), placeKey(b.name)) || a.lat - b.lat || a.lon - b.lon);
outcodes.sort((a, b) => cmp(a.code, b.code));
// Areas: one A row per distinct (nation, counties), numbered in order of first use.
const areaIds = new Map<string, number>();
const areaOf = (p: { nation: string; counties: readonly string[] }): string => {
  if (p.nation === '' && p.counties.length === 0) return '-';
  const text = `${p.nation || '-'}\t${p.counties.length > 0 ? p.counties.join(';') : '-'}`;
  let id = areaIds.get(text);
  if (id === undefined) areaIds.set(text, (id = areaIds.size));
  return String(id);
};
const placeLines = places.map((p) => ['P', p.name, fixed(p.lat), fixed(p.lon), p.feature || '-', p.population, p.outcodes, p.precise, areaOf(p), p.districts.size > 0 ? [...p.districts].sort(cmp).join(',') : '-'].join('\t'));
// after the P rows, so that their area numbers do not depend on the S rows
const strayLines = strays.map((p) => ['S', p.name, fixed(p.lat), fixed(p.lon), p.code, areaOf(p)].join('\t'));
const lines = [
  '# GB gazetteer derived from GeoNames (CC BY 4.0) and its GB postal-code file (contains Royal Mail data); see NOTICE.md. Built by build-gb-gazetteer.ts.',
  'type\tname\tlat\tlon\tfeature\tpopulation\toutcodes\tprecise\tarea\tdistricts',
  ...[...areaIds].map(([text, id]) => `A\t${id}\t${text}`),
  ...placeLines,
  ...strayLines,
  ...outcodes.map((o) => ['O', o.code, fixed(o.lat), fixed(o.lon), '-', 0, o.rows, o.precise].join('\t')),
];
writeFileSync(outFile, `${lines.join('\n')}\n`);
console.log(`${outFile}: ${places.length} places in ${areaIds.size} areas (${cityRows.length} GeoNames rows read, ${postal.length} postal rows), ${outcodes.length} outward codes; ${strayEstimateNames} postal place names left out, placed only at stray district estimates`);

function pushTo1<T>(map: Map<string, Set<T>>, key: string, value: T): void {
  const set = map.get(key);
  if (set === undefined) map.set(key, new Set([value]));
  else set.add(value);
}

function pushTo<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

/** Connected components of "within `link` metres" (rows of one name: a few dozen at most). */
function singleLinkage(rows: readonly PostalRow[], link: number): PostalRow[][] {
  const group = rows.map((_, i) => i);
  const find = (i: number): number => (group[i] === i ? i : (group[i] = find(group[i]!)));
  for (let i = 0; i < rows.length; i++) {
    for (let j = i + 1; j < rows.length; j++) {
      if (nearDistanceMeters(rows[i]!.lat, rows[i]!.lon, rows[j]!.lat, rows[j]!.lon) <= link) group[find(i)] = find(j);
    }
  }
  const out = new Map<number, PostalRow[]>();
  rows.forEach((r, i) => pushTo(out, find(i), r));
  return [...out.values()];
}

/** The most frequent point of `rows`; ties: best accuracy, then nearest the mean of `all` (the rows and others of the place). */
function representative(rows: readonly PostalRow[], all: readonly PostalRow[] = rows): { lat: number; lon: number } {
  const cLat = mean(all.map((r) => r.lat));
  const cLon = mean(all.map((r) => r.lon));
  const counts = new Map<string, { lat: number; lon: number; n: number; accuracy: number }>();
  for (const r of rows) {
    const k = pointKey(r);
    const c = counts.get(k);
    if (c === undefined) counts.set(k, { lat: r.lat, lon: r.lon, n: 1, accuracy: r.accuracy });
    else {
      c.n++;
      c.accuracy = Math.max(c.accuracy, r.accuracy);
    }
  }
  let best: { lat: number; lon: number; n: number; accuracy: number } | null = null;
  let bestD = Infinity;
  for (const c of counts.values()) {
    const d = nearDistanceMeters(cLat, cLon, c.lat, c.lon);
    if (best === null || c.n > best.n || (c.n === best.n && (c.accuracy > best.accuracy || (c.accuracy === best.accuracy && d < bestD)))) {
      best = c;
      bestD = d;
    }
  }
  return best!;
}

function pointKey(r: { lat: number; lon: number }): string {
  return `${r.lat},${r.lon}`;
}

/** The distinct non-empty values, most frequent first (ties: alphabetical). */
function byFrequency(values: readonly string[]): string[] {
  const counts = new Map<string, number>();
  for (const v of values) if (v !== '') counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || cmp(a[0], b[0])).map(([v]) => v);
}

function mostCommon(values: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best = '';
  let n = -1;
  for (const [v, c] of counts) if (c > n || (c === n && v < best)) [best, n] = [v, c];
  return best;
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

function mean(xs: readonly number[]): number {
  let s = 0;
  for (const x of xs) s += x;
  return s / xs.length;
}

function fixed(x: number): string {
  return String(Math.round(x * 1e5) / 1e5);
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
