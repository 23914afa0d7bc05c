/**
 * The widget's map: an SVG drawn in Web Mercator with no tile service needed. Layers, from
 * the bottom: optional base-map tiles (operator's URL template), route corridor, radius
 * circle, route line, venues (numbered as in the results list), people, centre.
 * Pan by dragging or the arrow keys; zoom with the wheel, the buttons or + and -.
 * A click that is not a drag (or Enter) reports the point as a "pick".
 */
import { metersPerPixel, MAX_MERCATOR_LAT, project, TILE_SIZE, unproject } from './mercator.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
export const MIN_ZOOM = 2;
export const MAX_ZOOM = 18;
/** A pointer that moves less than this between down and up is a click, pixels. */
const CLICK_SLOP_PX = 5;
const KEY_PAN_PX = 80;

export interface LatLon {
  readonly lat: number;
  readonly lon: number;
}

export interface MapVenue extends LatLon {
  readonly id: string;
  readonly name: string;
  readonly rank: number;
}

export interface MapPerson extends LatLon {
  readonly label: string;
}

export interface MapLayers {
  venues: readonly MapVenue[];
  people: readonly MapPerson[];
  centre?: LatLon | undefined;
  radiusMeters?: number | undefined;
  route: readonly LatLon[];
  corridorMeters?: number | undefined;
  selectedId?: string | undefined;
}

export interface MapOptions {
  readonly tileUrl: string | null;
  readonly onPick: (point: LatLon) => void;
  readonly onVenue: (id: string) => void;
}

function el<K extends keyof SVGElementTagNameMap>(name: K, attrs: Record<string, string | number>, parent?: Element): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  parent?.appendChild(node);
  return node;
}

export class MapView {
  centre: LatLon = { lat: 54.2, lon: -2.5 };
  zoom = 5;
  private layers: MapLayers = { venues: [], people: [], route: [] };
  private width = 600;
  private height = 400;
  private drag: { pointerId: number; startX: number; startY: number; lastX: number; lastY: number; moved: boolean } | undefined;

  constructor(
    private readonly svg: SVGSVGElement,
    private readonly options: MapOptions,
  ) {
    svg.addEventListener('pointerdown', (e) => this.onPointerDown(e));
    svg.addEventListener('pointermove', (e) => this.onPointerMove(e));
    svg.addEventListener('pointerup', (e) => this.onPointerUp(e));
    svg.addEventListener('pointercancel', () => (this.drag = undefined));
    svg.addEventListener('wheel', (e) => this.onWheel(e), { passive: false });
    svg.addEventListener('keydown', (e) => this.onKey(e));
    new ResizeObserver(() => this.render()).observe(svg);
  }

  setLayers(layers: MapLayers): void {
    this.layers = layers;
    this.render();
  }

  setView(centre: LatLon, zoom: number): void {
    this.centre = { lat: Math.max(-MAX_MERCATOR_LAT, Math.min(MAX_MERCATOR_LAT, centre.lat)), lon: centre.lon };
    this.zoom = Math.max(MIN_ZOOM, Math.min(MAX_ZOOM, Math.round(zoom)));
    this.render();
  }

  zoomBy(delta: number, around?: { x: number; y: number }): void {
    const zoom = Math.max(MIN_ZOOM, Math.min(MAX_ZOOM, this.zoom + delta));
    if (zoom === this.zoom) return;
    if (around === undefined) return this.setView(this.centre, zoom);
    // keep the point under the cursor fixed
    const point = this.toLatLon(around.x, around.y);
    const p = project(point.lat, point.lon, zoom);
    this.setView(unproject(p.x - (around.x - this.width / 2), p.y - (around.y - this.height / 2), zoom), zoom);
  }

  panBy(dx: number, dy: number): void {
    const c = project(this.centre.lat, this.centre.lon, this.zoom);
    this.setView(unproject(c.x + dx, c.y + dy, this.zoom), this.zoom);
  }

  /** Centres and zooms so every point (and `marginMeters` around the first) is in view. */
  fit(points: readonly LatLon[], marginMeters = 0): void {
    if (points.length === 0) return;
    this.measure();
    for (let zoom = MAX_ZOOM - 2; zoom >= MIN_ZOOM; zoom--) {
      const px = points.map((p) => project(p.lat, p.lon, zoom));
      const margin = marginMeters / metersPerPixel(points[0]!.lat, zoom);
      const minX = Math.min(...px.map((p) => p.x)) - margin;
      const maxX = Math.max(...px.map((p) => p.x)) + margin;
      const minY = Math.min(...px.map((p) => p.y)) - margin;
      const maxY = Math.max(...px.map((p) => p.y)) + margin;
      if (maxX - minX <= this.width - 40 && maxY - minY <= this.height - 40) {
        this.setView(unproject((minX + maxX) / 2, (minY + maxY) / 2, zoom), zoom);
        return;
      }
    }
    this.setView(points[0]!, MIN_ZOOM);
  }

  /** Screen pixel (relative to the SVG) to coordinates. */
  toLatLon(x: number, y: number): LatLon {
    const c = project(this.centre.lat, this.centre.lon, this.zoom);
    return unproject(c.x + x - this.width / 2, c.y + y - this.height / 2, this.zoom);
  }

  private toScreen(p: LatLon): { x: number; y: number } {
    const c = project(this.centre.lat, this.centre.lon, this.zoom);
    const q = project(p.lat, p.lon, this.zoom);
    return { x: q.x - c.x + this.width / 2, y: q.y - c.y + this.height / 2 };
  }

  private measure(): void {
    const box = this.svg.getBoundingClientRect();
    this.width = Math.max(1, Math.round(box.width));
    this.height = Math.max(1, Math.round(box.height));
  }

  render(): void {
    this.measure();
    const svg = this.svg;
    svg.setAttribute('viewBox', `0 0 ${this.width} ${this.height}`);
    svg.replaceChildren();
    el('rect', { class: 'background', x: 0, y: 0, width: this.width, height: this.height }, svg);
    if (this.options.tileUrl !== null) this.drawTiles(el('g', { class: 'tiles' }, svg), this.options.tileUrl);
    else this.drawGrid(svg);
    const { venues, people, centre, radiusMeters, route, corridorMeters, selectedId } = this.layers;
    const scaleLat = centre?.lat ?? route[0]?.lat ?? this.centre.lat;
    const mpp = metersPerPixel(scaleLat, this.zoom);
    if (route.length > 0) {
      const d = route.map((p, i) => {
        const s = this.toScreen(p);
        return `${i === 0 ? 'M' : 'L'}${s.x.toFixed(1)},${s.y.toFixed(1)}`;
      }).join(' ');
      if (corridorMeters !== undefined && route.length > 1) {
        // the corridor is the route swept by a disc: a round-capped stroke 2 x width wide
        el('path', { class: 'corridor', d, 'stroke-width': ((2 * corridorMeters) / mpp).toFixed(1), 'data-meters': corridorMeters }, svg);
      }
      el('path', { class: 'route', d }, svg);
      route.forEach((p, i) => {
        const s = this.toScreen(p);
        el('circle', { class: 'route-point', cx: s.x, cy: s.y, r: 4, 'data-index': i, 'data-lat': p.lat, 'data-lon': p.lon }, svg);
      });
    }
    if (centre !== undefined && radiusMeters !== undefined) {
      const s = this.toScreen(centre);
      el('circle', { class: 'radius', cx: s.x, cy: s.y, r: (radiusMeters / mpp).toFixed(1), 'data-meters': radiusMeters }, svg);
    }
    const venueLayer = el('g', { class: 'venues' }, svg);
    for (const venue of [...venues].reverse()) {
      const s = this.toScreen(venue);
      const g = el('g', { class: venue.id === selectedId ? 'venue selected' : 'venue', transform: `translate(${s.x.toFixed(1)},${s.y.toFixed(1)})`, 'data-id': venue.id }, venueLayer);
      el('title', {}, g).textContent = `${venue.rank}. ${venue.name}`;
      el('circle', { r: 10 }, g);
      const label = el('text', { 'text-anchor': 'middle', dy: '0.35em' }, g);
      label.textContent = String(venue.rank);
      g.addEventListener('click', (e) => {
        e.stopPropagation();
        this.options.onVenue(venue.id);
      });
    }
    const peopleLayer = el('g', { class: 'people' }, svg);
    people.forEach((person, i) => {
      const s = this.toScreen(person);
      const g = el('g', { class: 'person', transform: `translate(${s.x.toFixed(1)},${s.y.toFixed(1)})`, 'data-lat': person.lat, 'data-lon': person.lon }, peopleLayer);
      el('title', {}, g).textContent = person.label;
      el('path', { d: 'M0,0 L-9,-16 A10,10 0 1,1 9,-16 Z' }, g);
      const t = el('text', { 'text-anchor': 'middle', y: -18 }, g);
      t.textContent = String(i + 1);
    });
    if (centre !== undefined) {
      const s = this.toScreen(centre);
      const g = el('g', { class: 'centre', transform: `translate(${s.x.toFixed(1)},${s.y.toFixed(1)})`, 'data-lat': centre.lat, 'data-lon': centre.lon }, svg);
      el('title', {}, g).textContent = 'Centre of the group';
      el('path', { d: 'M-9,0 H9 M0,-9 V9' }, g);
      el('circle', { r: 5 }, g);
    }
    this.drawScale(svg);
  }

  /** A scale bar of a round length (1, 2 or 5 x 10^n metres) about 100 pixels long, bottom left. */
  private drawScale(svg: SVGSVGElement): void {
    const mpp = metersPerPixel(this.centre.lat, this.zoom);
    const target = 100 * mpp;
    const power = 10 ** Math.floor(Math.log10(target));
    const meters = [5, 2, 1].map((m) => m * power).find((m) => m <= target) ?? power;
    const px = meters / mpp;
    const g = el('g', { class: 'scale', transform: `translate(12,${this.height - 14})` }, svg);
    el('path', { d: `M0,-6 V0 H${px.toFixed(1)} V-6` }, g);
    el('text', { x: 0, y: -9 }, g).textContent = meters >= 1000 ? `${meters / 1000} km` : `${meters} m`;
  }

  /** Faint lines on the tile grid (every 256 world pixels), so panning and zooming are visible without a base map. */
  private drawGrid(svg: SVGSVGElement): void {
    const c = project(this.centre.lat, this.centre.lon, this.zoom);
    const left = c.x - this.width / 2;
    const top = c.y - this.height / 2;
    const parts: string[] = [];
    for (let x = Math.ceil(left / TILE_SIZE) * TILE_SIZE; x < left + this.width; x += TILE_SIZE) parts.push(`M${(x - left).toFixed(1)},0 V${this.height}`);
    for (let y = Math.ceil(top / TILE_SIZE) * TILE_SIZE; y < top + this.height; y += TILE_SIZE) parts.push(`M0,${(y - top).toFixed(1)} H${this.width}`);
    if (parts.length > 0) el('path', { class: 'grid', d: parts.join(' ') }, svg);
  }

  private drawTiles(layer: SVGGElement, template: string): void {
    const z = this.zoom;
    const c = project(this.centre.lat, this.centre.lon, z);
    const left = c.x - this.width / 2;
    const top = c.y - this.height / 2;
    const n = 2 ** z;
    for (let ty = Math.floor(top / TILE_SIZE); ty <= Math.floor((top + this.height) / TILE_SIZE); ty++) {
      if (ty < 0 || ty >= n) continue;
      for (let tx = Math.floor(left / TILE_SIZE); tx <= Math.floor((left + this.width) / TILE_SIZE); tx++) {
        const wrapped = ((tx % n) + n) % n;
        const href = template.replace('{z}', String(z)).replace('{x}', String(wrapped)).replace('{y}', String(ty));
        el('image', { href, x: tx * TILE_SIZE - left, y: ty * TILE_SIZE - top, width: TILE_SIZE, height: TILE_SIZE }, layer);
      }
    }
  }

  private local(e: MouseEvent): { x: number; y: number } {
    const box = this.svg.getBoundingClientRect();
    return { x: e.clientX - box.left, y: e.clientY - box.top };
  }

  private onPointerDown(e: PointerEvent): void {
    if (e.button !== 0) return;
    const p = this.local(e);
    this.drag = { pointerId: e.pointerId, startX: p.x, startY: p.y, lastX: p.x, lastY: p.y, moved: false };
  }

  private onPointerMove(e: PointerEvent): void {
    const drag = this.drag;
    if (drag === undefined || drag.pointerId !== e.pointerId) return;
    const p = this.local(e);
    if (!drag.moved && Math.hypot(p.x - drag.startX, p.y - drag.startY) < CLICK_SLOP_PX) return;
    if (!drag.moved) this.svg.setPointerCapture(e.pointerId);
    drag.moved = true;
    this.panBy(drag.lastX - p.x, drag.lastY - p.y);
    drag.lastX = p.x;
    drag.lastY = p.y;
  }

  private onPointerUp(e: PointerEvent): void {
    const drag = this.drag;
    this.drag = undefined;
    if (drag === undefined || drag.pointerId !== e.pointerId || drag.moved) return;
    if ((e.target as Element).closest('.venue') !== null) return;
    const p = this.local(e);
    this.options.onPick(this.toLatLon(p.x, p.y));
  }

  private onWheel(e: WheelEvent): void {
    e.preventDefault();
    this.zoomBy(e.deltaY < 0 ? 1 : -1, this.local(e));
  }

  private onKey(e: KeyboardEvent): void {
    const moves: Record<string, [number, number]> = { ArrowLeft: [-KEY_PAN_PX, 0], ArrowRight: [KEY_PAN_PX, 0], ArrowUp: [0, -KEY_PAN_PX], ArrowDown: [0, KEY_PAN_PX] };
    const move = moves[e.key];
    if (move !== undefined) this.panBy(move[0], move[1]);
    else if (e.key === '+' || e.key === '=') this.zoomBy(1);
    else if (e.key === '-' || e.key === '_') this.zoomBy(-1);
    else if (e.key === 'Enter' || e.key === ' ') this.options.onPick(this.centre);
    else return;
    e.preventDefault();
  }
}
