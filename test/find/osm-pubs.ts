import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { VenueRecord } from '../../src/schema/venue.js';

/** The OSM London pubs file (shared, read-only); tests skip when it is absent. */
export const OSM_PUBS_PATH = fileURLToPath(new URL('../../../shared/data/osm-london-pubs/london_pubs_points.ndjson', import.meta.url));
export const HAVE_OSM_PUBS = existsSync(OSM_PUBS_PATH);
if (!HAVE_OSM_PUBS) console.warn(`[skip] OSM London pubs not found at ${OSM_PUBS_PATH}: name-search tests on real data are skipped`);

interface OsmPoint {
  osm_id: string;
  lat: number;
  lon: number;
  tags: Record<string, string>;
}

/**
 * A tiny adapter from the derived OSM points to venue records, for tests only (the real
 * importer lives in src/import): id = OSM id, name, an address line from addr:* tags.
 * Venues without a name are skipped.
 */
export function loadOsmPubs(): VenueRecord[] {
  const out: VenueRecord[] = [];
  for (const line of readFileSync(OSM_PUBS_PATH, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const o = JSON.parse(line) as OsmPoint;
    const t = o.tags;
    if (!t.name) continue;
    const street = [t['addr:housenumber'], t['addr:street']].filter(Boolean).join(' ');
    const cityLine = [t['addr:city'], t['addr:postcode']].filter(Boolean).join(' ');
    const address = [street, t['addr:suburb'], cityLine].filter((s) => s !== undefined && s !== '').join(', ');
    const r: VenueRecord = { id: o.osm_id, name: t.name, location: { type: 'Point', coordinates: [o.lat, o.lon] }, primaryGenre: 'pub' };
    if (address !== '') r.formattedAddress = address;
    out.push(r);
  }
  return out;
}
