import type { Feature, Geometry } from 'geojson';
import { representativePoint, type LatLon } from './osm-geometry.js';
import { genreOf, type OsmElement, type OsmType } from './osm-to-venue.js';
import { VEGGIE_CATEGORY_DIET, VEGGIE_ICON_TAG } from './osm-vocabulary.js';

/**
 * The three OSM shapes we read, reduced to `OsmElement`s (tags + one point):
 * - Overpass GeoJSON: properties are the tags; the element is `properties['@id']`
 *   (`node/1`, overpass-turbo), or `feature.id` as `node/1` (osmtogeojson), or a bare
 *   numeric `feature.id` whose type follows from the geometry (Point = node, else way).
 *   Ways of a `type=site` relation that carry no amenity themselves (their tags sit in
 *   `@relations[].reltags`) become one venue for the relation (a *derived* row), unless a
 *   member is itself tagged as a venue (then that member already represents it).
 * - GeoJSON of osm2pgsql flex tables (ogr2ogr): `properties.osm_id` with `osm_type`, read as
 *   on a points line (audit 67a F6).
 * - Veggiekarte GeoJSON: `_type`/`_id`, `icon` stands for amenity/shop, `category` for the
 *   diet tags, `addr_*`/`contact_*` for `addr:*`/`contact:*` (see osm-vocabulary.ts).
 * - Points NDJSON (`{osm_id, lat, lon, tags}` per line): `osm_id` is `node/1`, or a number
 *   (or a string of digits) with `osm_type` beside it, as Nominatim (`"node"`), osm2pgsql's flex
 *   output and Photon (`"N"`, `"W"`, `"R"`) write them (see {@link pointsLineRef}).
 */
export type OsmRow =
  | { readonly kind: 'element'; readonly element: OsmElement }
  | { readonly kind: 'derived'; readonly element: OsmElement; readonly from: readonly string[] }
  | { readonly kind: 'skip'; readonly ref: string; readonly reason: string; readonly detail?: string };

const OSM_REF = /^(node|way|relation)\/([0-9]+)$/;

function parseRef(ref: unknown): { type: OsmType; id: string } | undefined {
  if (typeof ref !== 'string') return undefined;
  const m = OSM_REF.exec(ref);
  return m ? { type: m[1] as OsmType, id: m[2] as string } : undefined;
}

/** `osm_type` as exports write it beside a numeric `osm_id` (compared in lower case): Nominatim's words, osm2pgsql flex's and Photon's letters. A Map: no inherited keys. */
const OSM_TYPE_NAMES: ReadonlyMap<string, OsmType> = new Map([
  ['node', 'node'],
  ['way', 'way'],
  ['relation', 'relation'],
  ['n', 'node'],
  ['w', 'way'],
  ['r', 'relation'],
]);

/** The digits of an OSM id given as a number or a string (`123`, `"123"`); undefined for anything else (a negative id, a fraction). */
function idDigits(id: unknown): string | undefined {
  if (typeof id === 'number') return Number.isSafeInteger(id) && id >= 0 ? String(id) : undefined;
  return typeof id === 'string' && /^[0-9]+$/.test(id) ? id : undefined;
}

/**
 * The element a points line names: its `osm_id` as `node/1`, or a numeric `osm_id` with an
 * `osm_type` of node/way/relation (or N/W/R) beside it; undefined otherwise. The one rule of
 * what `import osm` reads from a line and of what the other importers' hints take as OSM
 * (src/import/wrong-importer.ts).
 */
export function pointsLineRef(value: unknown): { type: OsmType; id: string } | undefined {
  const v = value as { osm_id?: unknown; osm_type?: unknown } | null;
  const joined = parseRef(v?.osm_id);
  if (joined !== undefined) return joined;
  const type = typeof v?.osm_type === 'string' ? OSM_TYPE_NAMES.get(v.osm_type.toLowerCase()) : undefined;
  const id = idDigits(v?.osm_id);
  return type !== undefined && id !== undefined ? { type, id } : undefined;
}

/** The forms of a points line's element, for the messages of a line or file without one. */
export const POINTS_LINE_ID_FORMS = 'the element as "osm_id": "node/1", or as "osm_type": "node" (or way, relation; N, W, R) with "osm_id": 1';

/**
 * Why a points line names no element, for a skip's detail and the error of a file with no such
 * line: the `osm_id` it has and what is missing; undefined for a line with no `osm_id` at all.
 */
export function pointsLineIdProblem(value: unknown): string | undefined {
  const v = value as { osm_id?: unknown; osm_type?: unknown } | null;
  if (v === null || typeof v !== 'object' || !('osm_id' in v)) return undefined;
  const id = JSON.stringify(v.osm_id)?.slice(0, 40) ?? String(v.osm_id);
  if (idDigits(v.osm_id) === undefined) return `osm_id ${id} is neither "node/1" nor a whole number, 0 or more`;
  if (!('osm_type' in v)) return `osm_id ${id} has no osm_type beside it`;
  return `osm_id ${id} has osm_type ${JSON.stringify(v.osm_type)?.slice(0, 40) ?? String(v.osm_type)}, not node, way or relation`;
}

/** String-valued tags only (OSM tags are strings; anything else is dropped). */
function stringTags(props: Record<string, unknown>, skipPrefix: string): Record<string, string> {
  const tags: Record<string, string> = {};
  for (const [k, v] of Object.entries(props)) {
    if (k.startsWith(skipPrefix)) continue;
    if (typeof v === 'string') tags[k] = v;
    else if (typeof v === 'number') tags[k] = String(v);
  }
  return tags;
}

/** Veggiekarte properties back to OSM-style tags (see the module comment). */
export function veggieTags(p: Record<string, unknown>): Record<string, string> {
  const s = (k: string): string | undefined => (typeof p[k] === 'string' && p[k] !== '' ? (p[k] as string) : undefined);
  const tags: Record<string, string> = {};
  const set = (k: string, v: string | undefined): void => {
    if (v !== undefined) tags[k] = v;
  };
  const icon = s('icon');
  const iconTag = icon !== undefined ? VEGGIE_ICON_TAG[icon] : undefined;
  if (iconTag) tags[iconTag[0]] = iconTag[1];
  else set('veggiekarte:icon', icon);
  if (!tags.shop) set('shop', s('shop'));
  // Veggiekarte makes a name up ("node 255601157") for an element OSM has no name for: not a name.
  const name = s('name');
  if (name !== undefined && name !== `${String(p._type)} ${String(p._id)}`) tags.name = name;
  set('addr:street', s('addr_street'));
  set('addr:city', s('addr_city'));
  set('addr:postcode', s('addr_postcode'));
  set('website', s('contact_website'));
  set('phone', s('contact_phone'));
  set('email', s('contact_email'));
  set('contact:facebook', s('contact_facebook'));
  set('contact:instagram', s('contact_instagram'));
  set('cuisine', s('cuisine'));
  set('opening_hours', s('opening_hours'));
  const category = s('category');
  Object.assign(tags, (category !== undefined && VEGGIE_CATEGORY_DIET[category]) || {});
  return tags;
}

interface SiteRelation {
  tags: Record<string, string>;
  memberRefs: string[];
  memberPoints: LatLon[];
  memberIsVenue: boolean;
}

function featureElement(
  f: Feature<Geometry | null, Record<string, unknown> | null>,
  index: number,
): { ref: string; type?: OsmType; id?: string; tags: Record<string, string>; point?: LatLon } {
  const props = f.properties ?? {};
  let parsed = parseRef(props['@id']) ?? parseRef(f.id);
  let tags: Record<string, string>;
  if (typeof props._type === 'string' && (typeof props._id === 'number' || typeof props._id === 'string')) {
    parsed = parseRef(`${props._type}/${props._id}`);
    tags = veggieTags(props);
  } else {
    tags = stringTags(props, '@');
    // osm2pgsql flex tables through ogr2ogr: `osm_id` and `osm_type` among the properties, as on a points line (audit 67a F6)
    const flex = parsed ? undefined : pointsLineRef(props);
    if (flex !== undefined) {
      parsed = flex;
      delete tags.osm_id;
      delete tags.osm_type;
    }
    if (!parsed && (typeof f.id === 'number' || (typeof f.id === 'string' && /^[0-9]+$/.test(f.id)))) {
      parsed = { type: f.geometry?.type === 'Point' ? 'node' : 'way', id: String(f.id) };
    }
  }
  const point = representativePoint(f.geometry);
  const ref = parsed ? `${parsed.type}/${parsed.id}` : `feature #${index}`;
  return { ref, ...(parsed ? parsed : {}), tags, ...(point ? { point } : {}) };
}

/**
 * True for a file `import osm` reads line by line (`.ndjson`, `.jsonl`, and GeoJSONSeq's
 * `.geojsonl`, `.geojsons`: audit 67a F5); others are read as one GeoJSON value.
 */
export function isPointsLineFile(path: string): boolean {
  return /\.(ndjson|jsonl|geojsonl|geojsons)$/i.test(path);
}

/**
 * `line` without the record separator (RS, U+001E) that begins each record of a GeoJSON text
 * sequence (RFC 8142 over RFC 7464, as GDAL writes `.geojsons`): the rest is the Feature, read as
 * a Feature line without it (audit 67g F3). A file that begins with RS is split on RS instead,
 * records spanning lines (osm-line-records.ts, audit 68b F4).
 */
export function withoutRecordSeparator(line: string): string {
  return line.charCodeAt(0) === 0x1e ? line.slice(1) : line;
}

/** True for a text (a byte order mark already dropped) that begins with RS: a JSON text sequence, read record by record (osm-line-records.ts). */
export function beginsJsonTextSequence(text: string): boolean {
  return text.charCodeAt(0) === 0x1e;
}

/** True for a GeoJSON Feature: an object whose `type` is "Feature". */
export function isFeature(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'Feature';
}

/**
 * The features `import osm` reads from one GeoJSON value: a FeatureCollection's (an object with
 * a `features` array), or a JSON array of Features (audit 67a F5); undefined for other JSON.
 */
export function featuresOf(value: unknown): unknown[] | undefined {
  const features = (value as { features?: unknown } | null)?.features;
  if (Array.isArray(features)) return features;
  return Array.isArray(value) && value.length > 0 && value.every(isFeature) ? value : undefined;
}

/** True for a JSON value `import osm` reads as GeoJSON ({@link featuresOf}). */
export function holdsFeatures(value: unknown): boolean {
  return featuresOf(value) !== undefined;
}

/**
 * True for a line `import osm` counts as OpenStreetMap's: a points line naming an OSM element
 * ({@link pointsLineRef}), or a GeoJSON Feature naming one as a FeatureCollection's feature
 * does (Features one a line, GeoJSONSeq, as `jq -c '.features[]'` writes an Overpass export;
 * audit 67a F5).
 */
export function namesOsmElement(value: unknown): boolean {
  if (isFeature(value)) return featureElement(value as Feature<Geometry | null, Record<string, unknown> | null>, 0).type !== undefined;
  return pointsLineRef(value) !== undefined;
}

/** The forms of a feature's element, for the skip of a feature naming none (audit 67a F6). */
const FEATURE_ID_FORMS = 'no element named: "@id": "node/1", an id "node/1" or 1, "_type" with "_id", or "osm_id" with "osm_type" among the properties';

/** All rows of one GeoJSON FeatureCollection (Overpass or Veggiekarte) or array of Features ({@link featuresOf}), in file order. */
export function featureCollectionRows(fc: unknown): OsmRow[] {
  const features = featuresOf(fc);
  if (features === undefined) return [{ kind: 'skip', ref: 'file', reason: 'not_a_feature_collection' }];
  const rows: OsmRow[] = [];
  const sites = new Map<string, SiteRelation>();
  const presentRefs = new Set<string>();
  features.forEach((raw, index) => {
    const f = raw as Feature<Geometry | null, Record<string, unknown> | null>;
    if (!f || typeof f !== 'object' || f.type !== 'Feature') {
      rows.push({ kind: 'skip', ref: `feature #${index}`, reason: 'not_a_feature' });
      return;
    }
    const el = featureElement(f, index);
    presentRefs.add(el.ref);
    const isVenue = genreOf(el.tags) !== undefined;
    const rels = Array.isArray(f.properties?.['@relations']) ? (f.properties['@relations'] as unknown[]) : [];
    let siteMember: string | undefined;
    for (const r of rels) {
      const rel = r as { rel?: unknown; reltags?: Record<string, unknown> };
      if (!rel.reltags || (typeof rel.rel !== 'number' && typeof rel.rel !== 'string')) continue;
      const relTags = stringTags(rel.reltags, '@');
      if (relTags.type !== 'site' || genreOf(relTags) === undefined) continue;
      const relRef = `relation/${rel.rel}`;
      const site = sites.get(relRef) ?? { tags: relTags, memberRefs: [], memberPoints: [], memberIsVenue: false };
      sites.set(relRef, site);
      site.memberRefs.push(el.ref);
      if (el.point) site.memberPoints.push(el.point);
      if (isVenue) site.memberIsVenue = true;
      siteMember ??= relRef;
    }
    if (!isVenue && siteMember) {
      rows.push({ kind: 'skip', ref: el.ref, reason: 'site_relation_member', detail: `tags on ${siteMember}` });
    } else if (el.type === undefined || el.id === undefined) {
      rows.push({ kind: 'skip', ref: el.ref, reason: 'missing_osm_id', detail: pointsLineIdProblem(f.properties) ?? FEATURE_ID_FORMS });
    } else if (!el.point) {
      rows.push({ kind: 'skip', ref: el.ref, reason: 'bad_geometry', detail: describeGeometry(f.geometry) });
    } else {
      rows.push({ kind: 'element', element: { type: el.type, id: el.id, tags: el.tags, point: el.point } });
    }
  });
  for (const [relRef, site] of sites) {
    if (site.memberIsVenue || presentRefs.has(relRef) || site.memberPoints.length === 0) continue;
    // Mean of the member points: members are parts of one site (a few tens of metres).
    const lat = site.memberPoints.reduce((a, p) => a + p.lat, 0) / site.memberPoints.length;
    const lon = site.memberPoints.reduce((a, p) => a + p.lon, 0) / site.memberPoints.length;
    const { type: _siteType, ...tags } = site.tags;
    const parsed = parseRef(relRef);
    if (parsed) rows.push({ kind: 'derived', element: { ...parsed, tags, point: { lat, lon } }, from: site.memberRefs });
  }
  return rows;
}

/** A geometry no point could be taken from, for a skip's example: its type, and a Point's coordinates. */
function describeGeometry(g: Geometry | null | undefined): string {
  if (g === null || g === undefined) return 'no geometry';
  if (g.type === 'Point') return `Point ${JSON.stringify(g.coordinates)}`.slice(0, 80);
  return String(g.type);
}

/** One line of the points NDJSON (`{osm_id, lat, lon, tags}`, the element as {@link pointsLineRef} reads it). */
export function pointsLineRow(value: unknown, lineNumber: number): OsmRow {
  const v = value as { osm_id?: unknown; lat?: unknown; lon?: unknown; tags?: unknown } | null;
  const parsed = pointsLineRef(value);
  const ref = parsed ? `${parsed.type}/${parsed.id}` : `line ${lineNumber}`;
  if (!parsed) {
    const problem = pointsLineIdProblem(value);
    return { kind: 'skip', ref, reason: 'missing_osm_id', ...(problem !== undefined ? { detail: problem } : {}) };
  }
  const point = representativePoint({ type: 'Point', coordinates: [v?.lon as number, v?.lat as number] });
  if (!point) return { kind: 'skip', ref, reason: 'bad_geometry', detail: `lat ${JSON.stringify(v?.lat)}, lon ${JSON.stringify(v?.lon)}`.slice(0, 80) };
  const tags = v?.tags && typeof v.tags === 'object' ? stringTags(v.tags as Record<string, unknown>, '@') : {};
  return { kind: 'element', element: { ...parsed, tags, point } };
}
