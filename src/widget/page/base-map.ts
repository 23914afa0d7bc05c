/**
 * The map's base: the operator's XYZ tiles when configured, otherwise an offline base drawn
 * from data this service serves (no network): land, coastlines and country borders from
 * Natural Earth 1:50m (TopoJSON from the `world-atlas` package), on a canvas in its own pane
 * below everything else. Tiles that all fail give way to the offline base, with a note on the
 * map. The container gets `data-base="tiles" | "offline"` (`data-base-fallback="tiles-failed"`
 * after such a switch) and, once the offline base is drawn, `data-base-drawn` with the number
 * of coastline lines.
 */
import type { GeometryCollection, Topology } from 'topojson-specification';
import { feature, mesh } from 'topojson-client';
import { escapeHtml } from '../page-html.js';
import { L } from './leaflet.js';

export interface BaseMapOptions {
  readonly tileUrl: string | null;
  readonly tileAttribution: string | null;
  readonly baseMapHref: string | null;
}


type Position = number[];

/**
 * Natural Earth's rings that cross the antimeridian (Chukotka, Fiji) jump from +180 to -180
 * degrees, which a flat map draws as a band across the world: continue such a line past
 * ±180 instead (Leaflet draws longitudes beyond 180 east of the date line).
 */
export function unwrapLine(line: Position[]): Position[] {
  let offset = 0;
  return line.map((p, i) => {
    if (i > 0) {
      const step = p[0]! - line[i - 1]![0]!;
      if (step > 180) offset -= 360;
      else if (step < -180) offset += 360;
    }
    return offset === 0 ? p : [p[0]! + offset, p[1]!];
  });
}

function unwrapGeometry<G extends GeoJSON.Geometry>(g: G): G {
  switch (g.type) {
    case 'LineString':
      return { ...g, coordinates: unwrapLine(g.coordinates) };
    case 'MultiLineString':
    case 'Polygon':
      return { ...g, coordinates: g.coordinates.map(unwrapLine) };
    case 'MultiPolygon':
      return { ...g, coordinates: g.coordinates.map((polygon) => polygon.map(unwrapLine)) };
    case 'GeometryCollection':
      return { ...g, geometries: g.geometries.map(unwrapGeometry) };
    default:
      return g;
  }
}

/**
 * Tile errors, with no tile loaded, after which the tiles give way to the offline base (a
 * tile server that is down or blocked answered nothing: the map was plain sea, with one
 * console error per tile; audit 62c finding 2). A few, not one: a single missing tile is
 * the server's business, not a reason to drop the operator's map.
 */
const TILE_FAILURES_BEFORE_OFFLINE = 4;
const TILES_FAILED_NOTE = 'The map tiles could not be loaded: showing the offline map.';

/**
 * Adds the base: the operator's tiles, else the offline base. `onOffline` runs once the
 * offline base is chosen (at once without tiles, or when the tiles fail): the place names
 * belong to it.
 */
export function addBaseMap(map: L.Map, options: BaseMapOptions, onOffline: () => void): void {
  const container = map.getContainer();
  if (options.tileUrl === null) return addOfflineBase(map, options, onOffline);
  container.dataset.base = 'tiles';
  const tiles = L.tileLayer(options.tileUrl, {
    // Leaflet writes attributions as HTML; the operator's credit line is plain text
    attribution: options.tileAttribution === null ? '' : escapeHtml(options.tileAttribution),
    maxZoom: 19,
    referrerPolicy: 'no-referrer',
  }).addTo(map);
  let loaded = 0;
  let failed = 0;
  tiles.on('tileload', () => loaded++);
  tiles.on('tileerror', () => {
    failed++;
    if (loaded > 0 || failed < TILE_FAILURES_BEFORE_OFFLINE || !map.hasLayer(tiles)) return;
    map.removeLayer(tiles); // Leaflet stops the tiles still loading
    container.dataset.baseFallback = 'tiles-failed';
    showNote(map, TILES_FAILED_NOTE);
    addOfflineBase(map, options, onOffline);
  });
}

/** A line of text on the map, top left, announced politely; clicks on it do not reach the map. */
function showNote(map: L.Map, text: string): void {
  const note = L.DomUtil.create('p', 'map-note');
  note.setAttribute('role', 'status');
  note.textContent = text;
  L.DomEvent.disableClickPropagation(note);
  const control = new L.Control({ position: 'topleft' });
  control.onAdd = () => note;
  control.addTo(map);
}

function addOfflineBase(map: L.Map, options: BaseMapOptions, onOffline: () => void): void {
  const container = map.getContainer();
  container.dataset.base = 'offline';
  map.attributionControl.addAttribution('Natural Earth, GeoNames');
  onOffline();
  if (options.baseMapHref === null) return;
  const pane = map.createPane('base');
  pane.classList.add('base-pane');
  const renderer = L.canvas({ pane: 'base', padding: 0.3 });
  void fetch(new URL(options.baseMapHref, location.href), { credentials: 'omit' })
    .then((response) => {
      if (!response.ok) throw new Error(`base map: HTTP ${response.status}`);
      return response.json() as Promise<Topology>;
    })
    .then((topology) => {
      const land = topology.objects.land as GeometryCollection;
      const countries = topology.objects.countries as GeometryCollection;
      // a land arc used once is a coastline; an arc shared by two countries is a border
      const coast = unwrapGeometry(mesh(topology, land, (a, b) => a === b));
      const borders = unwrapGeometry(mesh(topology, countries, (a, b) => a !== b));
      const landShape = feature(topology, land);
      const landFeatures = ('features' in landShape ? landShape.features : [landShape]).map((f) => ({ ...f, geometry: unwrapGeometry(f.geometry) }));
      const common = { renderer, interactive: false, pane: 'base' } as const;
      L.geoJSON({ type: 'FeatureCollection', features: landFeatures } as GeoJSON.FeatureCollection, { ...common, style: { stroke: false, fill: true, fillColor: '#f3efe6', fillOpacity: 1 } }).addTo(map);
      L.geoJSON(borders, { ...common, style: { color: '#8c7f92', weight: 1, dashArray: '4 3', opacity: 0.9, fill: false } }).addTo(map);
      L.geoJSON(coast, { ...common, style: { color: '#5d7f99', weight: 1.2, opacity: 1, fill: false } }).addTo(map);
      container.dataset.baseDrawn = String(coast.coordinates.length);
    })
    .catch(() => {
      // the page works without a base: the sea colour stays, markers and results are unaffected
      container.dataset.baseDrawn = '0';
    });
}
