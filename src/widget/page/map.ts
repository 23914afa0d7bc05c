/**
 * The widget's map, on Leaflet: the base (operator tiles or the offline base map and place
 * labels), then the route corridor, the radius circle, the route, the venues (numbered as
 * in the results list, clustered when dense), the people and the group's centre.
 *
 * Leaflet does the projection, panning (drag, arrow keys), zooming (wheel, + and -) and
 * clicks; this module adds: a click or Enter on the focused map reports a "pick"; venue
 * markers are buttons named "N. Venue name" (Enter opens the venue) that report hover and
 * focus, and can be highlighted from the list; `fitContent` frames everything drawn.
 * Elements carry data-* attributes (lat, lon, rank, id, meters) that the browser tests read.
 */
import { metersPerDegLat, metersPerDegLon } from '../../geo/ellipsoid.js';
import { addBaseMap, type BaseMapOptions } from './base-map.js';
import { L } from './leaflet.js';
import { unwrapFrom, westEdge } from './longitude-range.js';
import { metersPerPixel } from './mercator.js';
import { PlaceLabels } from './place-labels.js';
import { personPinName } from './person-label.js';

export const MIN_ZOOM = 2;
export const MAX_ZOOM = 18;
/** The closest a fit zooms in on operator tiles (a single venue is not shown at building scale). */
const FIT_MAX_ZOOM_TILES = 16;
/**
 * The closest a fit zooms in on the offline base, which has no streets: the zoom where it
 * names every town and district (place-labels.ts), so a lone venue is shown among names
 * rather than on a blank map (audit 62c finding 4).
 */
const FIT_MAX_ZOOM_OFFLINE = 13;
/** Person pins' z offset: below every venue badge (1000 - rank) and group (0), whatever their screen row. */
const PEOPLE_Z_OFFSET = -1_000_000;
/** The first view when the service does not say where its venues are: Great Britain. */
const DEFAULT_VIEW = { centre: [54.2, -2.5] as L.LatLngTuple, zoom: 5 };
/** The closest the first view zooms in on the venues' extent (a one-town dataset opens on the town). */
const START_MAX_ZOOM = 12;
/**
 * Room kept around the content when fitting, pixels: the person pin stands 36 px above its
 * point (top), the zoom buttons take the right edge, the attribution the bottom.
 */
const FIT_PADDING_TOP_LEFT: L.PointTuple = [30, 48];
const FIT_PADDING_BOTTOM_RIGHT: L.PointTuple = [62, 34];
/**
 * Markers closer than this (pixels) are grouped. The groups are made at the zoom rounded to a
 * whole number and drawn at the map's zoom, which may be half a step less (zoomSnap 0.5), where
 * distances shrink by 2^-0.5: 40 px >= the 26 px rank badge times 2^0.5, so two numbered venues
 * never overlap. A group is drawn at its venues' mean point, which may lie closer to another
 * badge than the radius: separateGroups() moves such groups apart. Wider from afar (a
 * country's worth of results).
 */
const clusterRadiusPx = (zoom: number): number => (zoom >= 12 ? 40 : 44);
/** The badges' sizes, CSS pixels (iconSize below, widget.css), and the gap kept between badges. */
const RANK_BADGE_PX = 26;
const GROUP_BADGE_PX = 34;
const BADGE_GAP_PX = 2;

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

/** A searched disc: the venues qualify by their distance from its centre, metres. */
export interface MapCircle extends LatLon {
  readonly meters: number;
}

export interface MapLayers {
  venues: readonly MapVenue[];
  people: readonly MapPerson[];
  centre?: LatLon | undefined;
  /** The discs the search qualified venues by (the centre's, or each person's in a fair meet-up). */
  circles: readonly MapCircle[];
  route: readonly LatLon[];
  corridorMeters?: number | undefined;
  selectedId?: string | undefined;
}

/** Where most venues are, degrees (the page config's `venueExtent`). */
export interface MapExtent {
  readonly south: number;
  readonly west: number;
  readonly north: number;
  readonly east: number;
}

export interface MapOptions extends BaseMapOptions {
  readonly placeLabelsHref: string | null;
  /** The first view frames it; null: DEFAULT_VIEW. */
  readonly startExtent: MapExtent | null;
  readonly onPick: (point: LatLon) => void;
  readonly onVenue: (id: string) => void;
  /** A venue marker was hovered or focused (its id), or left (undefined). */
  readonly onHover: (id: string | undefined) => void;
}

function setData(el: Element | undefined, data: Record<string, string | number>): void {
  if (el === undefined) return;
  for (const [k, v] of Object.entries(data)) el.setAttribute(`data-${k}`, String(v));
}

function span(className: string, text: string): HTMLSpanElement {
  const node = document.createElement('span');
  node.className = className;
  node.textContent = text;
  return node;
}

/** "2, 5 and 7" */
function listWords(items: readonly (string | number)[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

export class MapView {
  readonly map: L.Map;
  private layers: MapLayers = { venues: [], people: [], route: [], circles: [] };
  private readonly overlays = L.layerGroup();
  private readonly venueGroup: L.MarkerClusterGroup;
  private readonly venueMarkers = new Map<string, L.Marker>();
  /** Each venue marker's venue id (a group's icon names its best-ranked venue by it). */
  private readonly venueIdOf = new WeakMap<L.Marker, string>();
  private corridor: L.Polyline | undefined;
  private highlighted: string | undefined;
  /**
   * Every layer is drawn with its longitudes in [west, west + 360) (longitude-range.ts): one
   * continuous range, so results astride the antimeridian lie side by side. data-lon keeps
   * the true longitude.
   */
  private west = -180;
  /** The browser asks for reduced motion: no animated pans or zooms. */
  private readonly reducedMotion: boolean;

  constructor(
    private readonly container: HTMLElement,
    private readonly options: MapOptions,
  ) {
    const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    this.map = L.map(container, {
      center: DEFAULT_VIEW.centre,
      zoom: DEFAULT_VIEW.zoom,
      minZoom: MIN_ZOOM,
      maxZoom: MAX_ZOOM,
      // fits may stop at half levels (a phone's short map gains a lot); buttons and keys move whole levels
      zoomSnap: 0.5,
      zoomDelta: 1,
      zoomControl: false, // the page's own buttons, outside the map, are real <button>s
      attributionControl: true,
      keyboard: true,
      zoomAnimation: !reducedMotion,
      fadeAnimation: !reducedMotion,
      markerZoomAnimation: !reducedMotion,
      worldCopyJump: true,
    });
    // outside the frame: an embedded widget followed the link and lost its search
    this.map.attributionControl.setPrefix('<a href="https://leafletjs.com" target="_blank" rel="noopener">Leaflet</a>');
    if (reducedMotion) {
      // Leaflet animates pans (arrow keys, fits) whatever the zoom options say: not with reduced motion
      const panBy = this.map.panBy.bind(this.map);
      this.map.panBy = (offset, options) => panBy(offset, { ...options, animate: false });
    }
    this.reducedMotion = reducedMotion;
    const placeLabelsHref = options.placeLabelsHref;
    addBaseMap(this.map, options, () => {
      if (placeLabelsHref !== null) new PlaceLabels(this.map, placeLabelsHref);
    });
    this.overlays.addTo(this.map);
    // the circle, route and corridor are drawn in one unnamed svg: hidden from screen readers (the lists carry everything)
    this.map.getPane('overlayPane')?.setAttribute('aria-hidden', 'true');
    this.venueGroup = L.markerClusterGroup({
      maxClusterRadius: clusterRadiusPx,
      disableClusteringAtZoom: MAX_ZOOM - 1,
      showCoverageOnHover: false,
      spiderfyOnMaxZoom: false,
      animate: false,
      iconCreateFunction: (cluster) => this.clusterIcon(cluster),
    }).addTo(this.map);
    this.venueGroup.on('clusterkeypress', (e) => {
      const event = e as unknown as { layer: L.MarkerCluster; originalEvent: KeyboardEvent };
      // a group is a button: Enter and Space zoom in; Space must not scroll the page (audit 65b F4)
      const key = event.originalEvent.key;
      if (key !== 'Enter' && key !== ' ') return;
      event.originalEvent.preventDefault();
      event.layer.zoomToBounds({ padding: [40, 40] });
    });
    this.map.on('click', (e: L.LeafletMouseEvent) => options.onPick({ lat: e.latlng.lat, lon: e.latlng.wrap().lng }));
    container.addEventListener('keydown', (e) => {
      if (e.target !== container || (e.key !== 'Enter' && e.key !== ' ')) return;
      e.preventDefault();
      const c = this.map.getCenter().wrap();
      options.onPick({ lat: c.lat, lon: c.lng });
    });
    // clusters are rebuilt on zoom: the highlight follows the venue into its new group
    this.map.on('zoomend moveend', () => {
      this.applyHighlight();
      this.orderVenuesByRank();
      this.separateGroups();
    });
    this.map.on('zoomend', () => this.sizeCorridor());
    this.map.on('movestart', () => (container.dataset.moving = 'true'));
    // the view on the container, for the browser tests: zoom, and the centre's lat and lon
    const recordView = (): void => {
      const c = this.map.getCenter();
      container.dataset.zoom = String(this.map.getZoom());
      container.dataset.centreLat = String(c.lat);
      container.dataset.centreLon = String(c.lng);
    };
    this.map.on('moveend', () => {
      container.dataset.moving = 'false';
      recordView();
    });
    const start = options.startExtent;
    if (start !== null) {
      const bounds = L.latLngBounds([start.south, start.west], [start.north, start.east]);
      this.map.fitBounds(bounds, { paddingTopLeft: FIT_PADDING_TOP_LEFT, paddingBottomRight: FIT_PADDING_BOTTOM_RIGHT, maxZoom: START_MAX_ZOOM, animate: false });
    }
    recordView();
    new ResizeObserver(() => this.map.invalidateSize()).observe(container);
  }

  get zoom(): number {
    return this.map.getZoom();
  }

  /** Where `p` is drawn: its longitude in the layers' one continuous range. */
  private at(p: LatLon): L.LatLngTuple {
    return [p.lat, unwrapFrom(this.west, p.lon)];
  }

  setView(centre: LatLon, zoom: number): void {
    this.map.setView(this.at(centre), zoom, { animate: !this.reducedMotion });
  }

  zoomBy(delta: number): void {
    this.map.setZoom(this.map.getZoom() + delta);
  }

  /** Redraws every overlay from `layers`. */
  setLayers(layers: MapLayers): void {
    this.layers = layers;
    this.overlays.clearLayers();
    this.venueGroup.clearLayers();
    this.venueMarkers.clear();
    this.corridor = undefined;
    const { venues, people, centre, circles, route, corridorMeters, selectedId } = layers;
    this.west = westEdge([...venues, ...people, ...circles, ...route, ...(centre === undefined ? [] : [centre])].map((p) => p.lon));
    const ll = (p: LatLon): L.LatLngTuple => this.at(p);
    if (route.length > 0) {
      if (corridorMeters !== undefined && route.length > 1) {
        // the corridor is the route swept by a disc: a round-capped stroke 2 x distance wide
        this.corridor = L.polyline(route.map(ll), { className: 'corridor', interactive: false, lineCap: 'round', lineJoin: 'round', weight: 1 });
        this.overlays.addLayer(this.corridor);
        setData(this.corridor.getElement(), { meters: corridorMeters });
        this.sizeCorridor();
      }
      this.overlays.addLayer(L.polyline(route.map(ll), { className: 'route', interactive: false, weight: 3 }));
      route.forEach((p, i) => {
        const vertex = L.circleMarker(ll(p), { className: 'route-point', radius: 5, interactive: false, weight: 2, fillOpacity: 1 });
        this.overlays.addLayer(vertex);
        setData(vertex.getElement(), { index: i, lat: p.lat, lon: p.lon });
      });
    }
    for (const c of circles) {
      const circle = L.circle(ll(c), { radius: c.meters, className: 'radius', interactive: false, weight: 2, dashArray: '6 4' });
      this.overlays.addLayer(circle);
      setData(circle.getElement(), { lat: c.lat, lon: c.lon, meters: c.meters });
    }
    for (const venue of venues) {
      const marker = this.venueMarker(venue, venue.id === selectedId);
      this.venueMarkers.set(venue.id, marker);
      this.venueIdOf.set(marker, venue.id);
    }
    this.venueGroup.addLayers([...this.venueMarkers.values()]);
    people.forEach((person, i) => {
      const icon = L.divIcon({ className: 'person-marker', html: span('pin', String(i + 1)), iconSize: [28, 36], iconAnchor: [14, 36] });
      // people stand below the venues and groups: a pin hid their numbers (audit 62c finding 6),
      // while the people's own list names them; below any rank's offset (1000 - rank, ranks to 10,020)
      const marker = L.marker(ll(person), { icon, interactive: false, keyboard: false, zIndexOffset: PEOPLE_Z_OFFSET });
      marker.on('add', () => {
        const el = marker.getElement();
        el?.setAttribute('role', 'img');
        el?.setAttribute('aria-label', personPinName(i + 1, person));
        setData(el, { lat: person.lat, lon: person.lon });
      });
      this.overlays.addLayer(marker);
    });
    if (centre !== undefined) {
      const icon = L.divIcon({ className: 'centre-marker', html: span('cross', ''), iconSize: [22, 22] });
      const marker = L.marker(ll(centre), { icon, interactive: false, keyboard: false, zIndexOffset: PEOPLE_Z_OFFSET });
      marker.on('add', () => {
        const el = marker.getElement();
        el?.setAttribute('role', 'img');
        el?.setAttribute('aria-label', 'Centre of the group');
        setData(el, { lat: centre.lat, lon: centre.lon });
      });
      this.overlays.addLayer(marker);
    }
    this.applyHighlight();
    this.orderVenuesByRank();
    this.separateGroups();
  }

  /**
   * No badge hides a group's count (audit 67c F5): a group badge nearer another badge than
   * their half sizes plus BADGE_GAP_PX is moved away from it (CSS `translate`, on top of
   * Leaflet's positioning `transform`), a few relaxation rounds; a venue's numbered badge never
   * moves (it marks the venue's own point). A group stands for an area, so its badge may sit a
   * little off its venues' mean point.
   */
  private separateGroups(): void {
    const pane = this.map.getPane('markerPane');
    if (pane === undefined) return;
    const badges = Array.from(pane.querySelectorAll<HTMLElement>('.venue-cluster, .venue-marker')).map((el) => {
      el.style.translate = '';
      const at = L.DomUtil.getPosition(el); // the icon's anchor: the badge's centre
      const group = el.classList.contains('venue-cluster');
      return { el, group, size: group ? GROUP_BADGE_PX : RANK_BADGE_PX, x0: at.x, y0: at.y, x: at.x, y: at.y };
    });
    if (!badges.some((b) => b.group)) return;
    for (let round = 0; round < 40; round++) {
      let moved = false;
      for (let i = 0; i < badges.length; i++) {
        for (let j = i + 1; j < badges.length; j++) {
          const a = badges[i]!;
          const b = badges[j]!;
          if (!a.group && !b.group) continue;
          const need = (a.size + b.size) / 2 + BADGE_GAP_PX;
          let dx = b.x - a.x;
          let dy = b.y - a.y;
          let d = Math.hypot(dx, dy);
          if (d >= need) continue;
          if (d < 0.01) [dx, dy, d] = [Math.cos(i + j), Math.sin(i + j), 1]; // on one point: any direction, fixed
          const push = need - d + 0.01;
          const share = a.group && b.group ? push / 2 : push;
          if (a.group) [a.x, a.y] = [a.x - (dx / d) * share, a.y - (dy / d) * share];
          if (b.group) [b.x, b.y] = [b.x + (dx / d) * share, b.y + (dy / d) * share];
          moved = true;
        }
      }
      if (!moved) break;
    }
    for (const b of badges) if (b.x !== b.x0 || b.y !== b.y0) b.el.style.translate = `${(b.x - b.x0).toFixed(1)}px ${(b.y - b.y0).toFixed(1)}px`;
  }

  /**
   * The markers in the Tab order of the ranks: people first, then each venue or group by its
   * best rank (markercluster adds them in the order it walks its tree, which is no order a
   * person can follow: audit 60d). Left as they are while one has the focus (moving a
   * focused element would drop the focus).
   */
  private orderVenuesByRank(): void {
    const pane = this.map.getPane('markerPane');
    if (pane === undefined || pane.contains(document.activeElement)) return;
    const rankOf = (el: Element): number => {
      const own = (el as HTMLElement).dataset.rank ?? el.querySelector<HTMLElement>('.cluster-badge')?.dataset.ranks?.split(' ')[0];
      return own === undefined ? 0 : Number(own); // people and the centre: 0, first
    };
    const markers = Array.from(pane.children);
    const ordered = [...markers].sort((a, b) => rankOf(a) - rankOf(b));
    if (ordered.some((el, k) => el !== markers[k])) pane.append(...ordered);
  }

  /**
   * Frames the people, the route with its corridor, the searched circles and the venues, with
   * padding, as close as FIT_MAX_ZOOM_TILES (FIT_MAX_ZOOM_OFFLINE on the offline base). Nothing drawn: the view stays. `onlyIfOutside`: the
   * view stays too when all of it already lies inside the view less the padding (a search
   * that follows clicks on the map moves it only to show what would be hidden).
   */
  fitContent(onlyIfOutside = false): void {
    const { venues, people, centre, circles, route, corridorMeters } = this.layers;
    const bounds = L.latLngBounds([]);
    // the drawn positions, on one continuous longitude range (setLayers): the fit spans the smallest interval
    for (const p of [...venues, ...people, ...route]) bounds.extend(this.at(p));
    if (centre !== undefined) bounds.extend(this.at(centre));
    // the circle and the corridor reach `meters` beyond their centre line: extend by that
    const reach = (p: LatLon, meters: number) => {
      const dLat = meters / metersPerDegLat(p.lat);
      const dLon = meters / metersPerDegLon(p.lat);
      const [lat, lon] = this.at(p);
      bounds.extend([lat - dLat, lon - dLon]).extend([lat + dLat, lon + dLon]);
    };
    for (const c of circles) reach(c, c.meters);
    if (corridorMeters !== undefined && route.length > 1) for (const p of route) reach(p, corridorMeters);
    if (!bounds.isValid()) return;
    if (onlyIfOutside && this.paddedView().contains(bounds)) return;
    const maxZoom = this.container.dataset.base === 'tiles' ? FIT_MAX_ZOOM_TILES : FIT_MAX_ZOOM_OFFLINE;
    this.map.fitBounds(bounds, { paddingTopLeft: FIT_PADDING_TOP_LEFT, paddingBottomRight: FIT_PADDING_BOTTOM_RIGHT, maxZoom, animate: !this.reducedMotion });
  }

  /** The view less the fit's padding (the part where fitContent puts what it frames). */
  private paddedView(): L.LatLngBounds {
    const size = this.map.getSize();
    const topLeft = this.map.containerPointToLatLng(L.point(FIT_PADDING_TOP_LEFT[0], FIT_PADDING_TOP_LEFT[1]));
    const bottomRight = this.map.containerPointToLatLng(L.point(size.x - FIT_PADDING_BOTTOM_RIGHT[0], size.y - FIT_PADDING_BOTTOM_RIGHT[1]));
    return L.latLngBounds(topLeft, bottomRight);
  }

  /** The venue a focused marker or group element stands for (a group: its best-ranked venue). */
  venueOfElement(el: HTMLElement): string | undefined {
    return el.dataset.id ?? el.querySelector<HTMLElement>('.cluster-badge')?.dataset.firstId;
  }

  /** The element drawn now for venue `id`: its marker, or the group holding it; undefined when not drawn (out of view). */
  venueElement(id: string): HTMLElement | undefined {
    const marker = this.venueMarkers.get(id);
    if (marker === undefined) return undefined;
    const shown = this.venueGroup.getVisibleParent(marker) as L.Marker | null;
    return shown?.getElement() ?? undefined;
  }

  /** Marks venue `id`'s marker (or the group holding it) as highlighted; undefined clears. */
  highlight(id: string | undefined): void {
    this.highlighted = id;
    this.applyHighlight();
  }

  private applyHighlight(): void {
    for (const el of Array.from(this.container.querySelectorAll('.highlighted'))) el.classList.remove('highlighted');
    const marker = this.highlighted === undefined ? undefined : this.venueMarkers.get(this.highlighted);
    if (marker === undefined) return;
    const shown = this.venueGroup.getVisibleParent(marker) as L.Marker | null;
    shown?.getElement()?.classList.add('highlighted');
  }

  /** The corridor's stroke is 2 x its distance at the map's scale at the route's latitude. */
  private sizeCorridor(): void {
    const corridor = this.corridor;
    const meters = this.layers.corridorMeters;
    if (corridor === undefined || meters === undefined || this.layers.route.length === 0) return;
    const lats = this.layers.route.map((p) => p.lat);
    const midLat = (Math.min(...lats) + Math.max(...lats)) / 2;
    corridor.setStyle({ weight: (2 * meters) / metersPerPixel(midLat, this.map.getZoom()) });
  }

  private venueMarker(venue: MapVenue, selected: boolean): L.Marker {
    const icon = L.divIcon({ className: selected ? 'venue-marker selected' : 'venue-marker', html: span('rank-badge', String(venue.rank)), iconSize: [26, 26] });
    const marker = L.marker(this.at(venue), { icon, keyboard: true, title: `${venue.rank}. ${venue.name}`, riseOnHover: true, zIndexOffset: 1000 - venue.rank });
    marker.on('add', () => {
      const el = marker.getElement();
      if (el === undefined) return;
      el.setAttribute('aria-label', `${venue.rank}. ${venue.name}: show details and menu`);
      setData(el, { id: venue.id, rank: venue.rank, lat: venue.lat, lon: venue.lon });
      el.addEventListener('focus', () => this.options.onHover(venue.id));
      el.addEventListener('blur', () => this.options.onHover(undefined));
      el.addEventListener('keydown', (e) => {
        if (e.key !== 'Enter' && e.key !== ' ') return;
        e.preventDefault();
        e.stopPropagation();
        this.options.onVenue(venue.id);
      });
      if (venue.id === this.highlighted) el.classList.add('highlighted');
    });
    marker.on('click', () => this.options.onVenue(venue.id));
    marker.on('mouseover', () => this.options.onHover(venue.id));
    marker.on('mouseout', () => this.options.onHover(undefined));
    return marker;
  }

  /** A group of venues: its count, and for screen readers the ranks it holds. */
  private clusterIcon(cluster: L.MarkerCluster): L.DivIcon {
    const ranked = cluster
      .getAllChildMarkers()
      .map((m) => ({ rank: Number(/^(\d+)\./.exec(m.options.title ?? '')?.[1]), id: this.venueIdOf.get(m) }))
      .filter((c) => Number.isFinite(c.rank))
      .sort((a, b) => a.rank - b.rank);
    const ranks = ranked.map((c) => c.rank);
    const html = document.createElement('span');
    html.className = 'cluster-badge';
    html.dataset.ranks = ranks.join(' ');
    const firstId = ranked[0]?.id;
    if (firstId !== undefined) html.dataset.firstId = firstId;
    const count = span('', String(ranks.length));
    count.setAttribute('aria-hidden', 'true');
    html.append(count, span('sr-only', `Group of ${ranks.length} venues: ${listWords(ranks)}. Enter or Space zooms in.`));
    return L.divIcon({ className: 'venue-cluster', html, iconSize: [34, 34] });
  }
}
