/**
 * The map's base: the operator's XYZ tiles when configured, otherwise an offline base drawn
 * from data this service serves (no network): land, coastlines and country borders from
 * Natural Earth 1:50m (TopoJSON from the `world-atlas` package), on a canvas in its own pane
 * below everything else. The container gets `data-base="tiles" | "offline"` and, once the
 * offline base is drawn, `data-base-drawn` with the number of coastline lines.
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

export function addBaseMap(map: L.Map, options: BaseMapOptions): void {
  const container = map.getContainer();
  if (options.tileUrl !== null) {
    container.dataset.base = 'tiles';
    L.tileLayer(options.tileUrl, {
      // Leaflet writes attributions as HTML; the operator's credit line is plain text
      attribution: options.tileAttribution === null ? '' : escapeHtml(options.tileAttribution),
      maxZoom: 19,
      referrerPolicy: 'no-referrer',
    }).addTo(map);
    return;
  }
  container.dataset.base = 'offline';
  map.attributionControl.addAttribution('Natural Earth, GeoNames');
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
