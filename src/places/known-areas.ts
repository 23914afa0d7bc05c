import { suggestionBudget } from '../find/close-spellings.js';
import { nearDistanceMeters } from '../geo/distance.js';
import { MIN_METERS_PER_DEG_LAT, metersPerDegLon } from '../geo/ellipsoid.js';
import { editDistance } from '../find/prefix-edit-distance.js';
import { DEFAULT_GAZETTEER_COUNTRIES, admin1Name, countryName, isInArea, type Gazetteer, type GazetteerEntry } from './gazetteer.js';
import { isFormerCountyByPoint, isFormerCountyKey, looseArea } from './loose-area.js';
import { areaKeys, placeKey } from './place-name.js';

/** The names of the United Kingdom that qualify any GB place (gazetteer.ts isInArea reads them). */
const UK_NAMES = ['United Kingdom', 'UK', 'Great Britain', 'Britain'];
/** Side of hasPlaceNear's grid cells, degrees (about 11 km of latitude). */
const GRID_DEGREES = 0.1;
/** Qualifiers remembered as read loosely or not (each a scan of the gazetteer, on the error path). */
const LOOSE_MEMO = 1000;

/**
 * The areas a gazetteer knows, for a qualifier no place of the name is in (audit 65a F3,
 * F14): whether the qualifier names an area of ANY entry (else "no Cork in County Cork" would
 * state a falsehood: the gazetteer simply has no area of that name), and the known areas
 * closest in spelling to one it does not know ("Lodnon": London). Built at the first
 * unknown qualifier (an error path), from every entry's counties, nation, state or province
 * and country, each under its own name and without its administrative words ("London" for
 * "Greater London": areaKeys).
 */
export class KnownAreas {
  /** Area name by place key; null until first asked. */
  private names: Map<string, string> | null = null;
  /** One entry for each distinct set of areas (counties, nation, state, country): what has() scans. */
  private profiles: GazetteerEntry[] = [];
  /** Whether a key names an area by a looser reading only (loose-area.ts), by key; at most LOOSE_MEMO keys (cleared when full: the keys are users' input). */
  private readonly loose = new Map<string, boolean>();
  /** hasPlaceNear's grid: entries by cell; null until first asked. */
  private cells: Map<number, GazetteerEntry[]> | null = null;
  /** A visited cell's entries grouped by their areas (built at its first visit). */
  private readonly groups = new Map<number, CellGroup[]>();

  constructor(private readonly gazetteer: Gazetteer) {}

  /** Whether `key` (a place key) names an area some entry lies in, by its name or a looser reading ("IOM", "Co. Durham"). */
  has(key: string): boolean {
    if (this.byKey().has(key)) return true; // byKey() also gathers the profiles
    let known = this.loose.get(key);
    if (known === undefined) {
      known = false;
      for (const e of this.profiles) {
        if (isInArea(e, key) || looseArea(e, key) !== null) {
          known = true;
          break;
        }
      }
      if (this.loose.size >= LOOSE_MEMO) this.loose.clear();
      this.loose.set(key, known);
    }
    return known;
  }

  /**
   * Whether `key` names an area for a place of these `candidates` (the places of the name
   * qualified by it): has(key), or a former county of the GB table (loose-area.ts
   * FORMER_COUNTIES: "Middlesex", "Middx") when every candidate is in the British Isles (the
   * default gazetteer's countries, none of whose other areas shares a former county's name),
   * the table's county then being the one meant (audit 66f F6: "Brentford, Middlesex" was
   * "Middlesex is not an area we know" while "Harrow, Middlesex" resolved; "Newport, Hunts"
   * was so too, for a Newport in Ireland; "Cambridge, Middx" on the world gazetteer keeps it:
   * Cambridge, Massachusetts is in a Middlesex County the gazetteer does not hold).
   */
  knowsFor(key: string, candidates: readonly GazetteerEntry[]): boolean {
    return this.has(key) || (isFormerCountyKey(key) && candidates.length > 0 && candidates.every((e) => DEFAULT_GAZETTEER_COUNTRIES.includes(e.country)));
  }

  /**
   * Whether some gazetteer place in the area `key` (a place key; by its name or a looser
   * reading, as has()) lies within `meters` of one of `points` (not across the antimeridian:
   * the cells do not wrap). Entries are found through a
   * grid of cells of GRID_DEGREES, built at the first call (an error path).
   */
  hasPlaceNear(key: string, points: ReadonlyArray<{ lat: number; lon: number }>, meters: number): boolean {
    const grid = this.grid();
    // the area is read once per group of entries sharing areas (by a nameless sample), and per
    // entry only in a county whose former counties are decided by point (audit 66f F7: the error
    // path read every entry within reach, 4-23x slower than before the former-county table)
    const former = isFormerCountyKey(key);
    const inArea = new Map<CellGroup, boolean>();
    const dLat = meters / MIN_METERS_PER_DEG_LAT;
    for (const p of points) {
      // metres per degree of longitude at the cells' poleward edge (fewest there), at least 1 km near a pole
      const dLon = meters / Math.max(metersPerDegLon(Math.min(90, Math.abs(p.lat) + dLat)), 1000);
      for (let la = Math.floor((p.lat - dLat) / GRID_DEGREES); la <= Math.floor((p.lat + dLat) / GRID_DEGREES); la++) {
        for (let lo = Math.floor((p.lon - dLon) / GRID_DEGREES); lo <= Math.floor((p.lon + dLon) / GRID_DEGREES); lo++) {
          for (const group of this.cellGroups(grid, cellId(la, lo))) {
            // a point-decided group's former county is each entry's own (its sample's point is one of them)
            const byPoint = former && isFormerCountyByPoint(group.sample);
            let all = inArea.get(group);
            if (all === undefined) inArea.set(group, (all = isInArea(group.sample, key) || (!byPoint && looseArea(group.sample, key) !== null)));
            for (const e of group.entries) {
              if (!all && !byPoint) continue;
              if (nearDistanceMeters(p.lat, p.lon, e.lat, e.lon) <= meters && (all || looseArea(e, key) !== null)) return true;
            }
          }
        }
      }
    }
    return false;
  }

  /** Gazetteer entries by grid cell (GRID_DEGREES), built at the first hasPlaceNear. */
  private grid(): Map<number, GazetteerEntry[]> {
    if (this.cells !== null) return this.cells;
    const cells = new Map<number, GazetteerEntry[]>();
    for (const e of this.gazetteer.entries()) {
      const cell = cellId(Math.floor(e.lat / GRID_DEGREES), Math.floor(e.lon / GRID_DEGREES));
      const list = cells.get(cell);
      if (list === undefined) cells.set(cell, [e]);
      else list.push(e);
    }
    this.cells = cells;
    return cells;
  }

  /** A cell's entries grouped by their areas (counties, nation, country, first-level area). */
  private cellGroups(grid: Map<number, GazetteerEntry[]>, cell: number): readonly CellGroup[] {
    let list = this.groups.get(cell);
    if (list !== undefined) return list;
    const byAreas = new Map<string, CellGroup>();
    for (const e of grid.get(cell) ?? []) {
      const areas = areaProfile(e);
      const group = byAreas.get(areas);
      // the sample has no name, so that only the entry's areas decide (a town read by name is checked per entry)
      if (group === undefined) byAreas.set(areas, { sample: { ...e, name: '' }, entries: [e] });
      else group.entries.push(e);
    }
    this.groups.set(cell, (list = [...byAreas.values()]));
    return list;
  }

  /** Known area names within a small edit distance of `key` (as suggestionBudget), nearest first, then by name. */
  closest(key: string): string[] {
    if (key.length < 3) return [];
    const max = suggestionBudget(key.length);
    const found: Array<{ name: string; edits: number }> = [];
    for (const [k, name] of this.byKey()) {
      if (k === key || Math.abs(k.length - key.length) > max) continue;
      const edits = editDistance(key, k, max);
      if (edits <= max) found.push({ name, edits });
    }
    found.sort((a, b) => a.edits - b.edits || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return [...new Set(found.map((f) => f.name))];
  }

  private byKey(): Map<string, string> {
    if (this.names !== null) return this.names;
    const names = new Map<string, string>();
    const add = (name: string): void => {
      for (const k of areaKeys(name)) if (!names.has(k)) names.set(k, shortNameFor(name, k));
    };
    let gb = false;
    const seen = new Set<string>();
    for (const e of this.gazetteer.entries()) {
      const profile = areaProfile(e);
      if (seen.has(profile)) continue;
      seen.add(profile);
      this.profiles.push(e);
      for (const county of e.counties ?? []) add(county);
      if (e.nation !== undefined) add(e.nation);
      const admin1 = admin1Name(e);
      if (admin1 !== undefined) add(admin1);
      add(countryName(e.country));
      gb ||= e.country === 'GB';
    }
    if (gb) for (const name of UK_NAMES) add(name);
    this.names = names;
    return names;
  }
}

/** Entries of one grid cell with the same areas (counties, nation, country, first-level area), and one of them without its name. */
interface CellGroup {
  readonly sample: GazetteerEntry;
  readonly entries: GazetteerEntry[];
}

/** An entry's areas as one key (counties, nation, country, first-level area): entries with the same key are in the same areas. */
function areaProfile(e: GazetteerEntry): string {
  return `${(e.counties ?? []).join(';')}|${e.nation ?? ''}|${e.country}|${e.admin1Code ?? ''}`;
}

/** A grid cell's id from its row and column (GRID_DEGREES; columns -1800..1800 at most). */
const cellId = (la: number, lo: number): number => la * 4096 + lo;

/** The words of `name` that make the place key `key` ("London" of "Greater London" for "london"); `name` when none do. */
function shortNameFor(name: string, key: string): string {
  const words = name.split(/\s+/);
  for (let from = 0; from < words.length; from++) {
    for (let to = words.length; to > from; to--) {
      const part = words.slice(from, to).join(' ');
      if (placeKey(part) === key) return part;
    }
  }
  return name;
}
