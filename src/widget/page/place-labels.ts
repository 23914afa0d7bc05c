/**
 * Place names on the offline base map, from the gazetteer rows the service serves
 * (`[name, lat, lon, population, isDistrict]`, most populous first). Which places show
 * depends on the zoom (big cities from afar, towns and then districts closer in); a label
 * that would overlap one already placed is skipped, so larger places win. Labels are
 * decorative (aria-hidden): the results list and the people list carry what matters.
 */
import { L } from './leaflet.js';

type Row = readonly [string, number, number, number, 0 | 1];

/** Smallest population labelled at each zoom (index = zoom, clamped); districts from DISTRICT_ZOOM. */
const MIN_POPULATION_BY_ZOOM = [5e6, 5e6, 3e6, 2e6, 1e6, 4e5, 1.5e5, 6e4, 2.5e4, 1e4, 4e3, 1.5e3, 0];
const DISTRICT_ZOOM = 12;
const MAX_LABELS = 80;
/** Estimated label box: average glyph width and line height of the label font, pixels. */
const GLYPH_PX = 6.6;
const LINE_PX = 16;

export class PlaceLabels {
  private rows: readonly Row[] = [];
  private readonly layer: L.LayerGroup;

  constructor(
    private readonly map: L.Map,
    href: string,
  ) {
    map.createPane('labels').classList.add('labels-pane');
    this.layer = L.layerGroup().addTo(map);
    map.on('moveend', () => this.update()); // a zoom ends with a moveend too
    void fetch(new URL(href, location.href), { credentials: 'omit' })
      .then((response) => (response.ok ? (response.json() as Promise<Row[]>) : []))
      .then((rows) => {
        this.rows = rows;
        this.update();
      })
      .catch(() => undefined);
  }

  private update(): void {
    this.layer.clearLayers();
    const zoom = Math.round(this.map.getZoom());
    const minPopulation = MIN_POPULATION_BY_ZOOM[Math.max(0, Math.min(MIN_POPULATION_BY_ZOOM.length - 1, zoom))]!;
    const bounds = this.map.getBounds().pad(0.05);
    const placed: { x0: number; x1: number; y0: number; y1: number }[] = [];
    for (const [name, lat, lon, population, district] of this.rows) {
      if (population < minPopulation) break; // rows are by population, descending
      if (district === 1 && zoom < DISTRICT_ZOOM) continue;
      if (!bounds.contains([lat, lon])) continue;
      const p = this.map.latLngToContainerPoint([lat, lon]);
      const half = (name.length * GLYPH_PX) / 2 + 4;
      const box = { x0: p.x - half, x1: p.x + half, y0: p.y - LINE_PX / 2, y1: p.y + LINE_PX / 2 };
      if (placed.some((b) => b.x0 < box.x1 && box.x0 < b.x1 && b.y0 < box.y1 && box.y0 < b.y1)) continue;
      placed.push(box);
      const label = document.createElement('span');
      label.textContent = name;
      const icon = L.divIcon({ className: district === 1 ? 'place-label district' : 'place-label', html: label, iconSize: [0, 0] });
      const marker = L.marker([lat, lon], { icon, pane: 'labels', interactive: false, keyboard: false });
      marker.on('add', () => marker.getElement()?.setAttribute('aria-hidden', 'true'));
      this.layer.addLayer(marker);
      if (placed.length >= MAX_LABELS) break;
    }
  }
}
