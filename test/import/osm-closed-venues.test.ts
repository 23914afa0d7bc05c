import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ImportReport } from '../../src/import/import-report.js';
import { collectRun, importOsm } from '../../src/import/osm-import.js';
import { osmElementToVenue, type MapOutcome } from '../../src/import/osm-to-venue.js';
import { hasShared, sharedFile } from '../support/real-data.js';

/**
 * Audit 62d finding 2: OSM places that no longer trade (`disused=yes`, a `disused:amenity`
 * without a live `amenity`) and places closed all week (`opening_hours=closed`/`off`) are
 * skipped with a named, counted reason, not imported as live venues.
 */
function map(tags: Record<string, string>): MapOutcome {
  const ctx = { report: new ImportReport('t'), hoursCache: new Map() };
  return osmElementToVenue({ type: 'node', id: '1', tags: { name: 'The Anchor', ...tags }, point: { lat: 51.5, lon: -0.1 } }, ctx);
}
const reason = (out: MapOutcome): string => (out.ok ? 'imported' : out.reason);

describe('osmElementToVenue: disused and closed-all-week places (audit 62d finding 2)', () => {
  it('disused=yes is skipped as disused, naming the tag', () => {
    expect(map({ amenity: 'pub', disused: 'yes' })).toEqual({ ok: false, reason: 'disused', detail: 'disused=yes' });
  });

  it('disused:amenity without a live amenity (a shop left) is disused; beside a live amenity it is a reopened venue', () => {
    expect(map({ shop: 'bakery', 'disused:amenity': 'cafe' })).toEqual({ ok: false, reason: 'disused', detail: 'disused:amenity=cafe' });
    expect(reason(map({ amenity: 'pub', 'disused:amenity': 'pub' }))).toBe('imported');
    expect(reason(map({ amenity: 'pub', disused: 'no' }))).toBe('imported');
  });

  it('opening_hours closed / off in any case, trimmed, is closed_all_week; hours with an off day are not', () => {
    for (const v of ['closed', 'Closed', ' OFF ', 'off']) expect(reason(map({ amenity: 'pub', opening_hours: v })), v).toBe('closed_all_week');
    for (const v of ['Mo-Fr 12:00-23:00; Sa,Su off', 'closed; Fr 18:00-22:00']) expect(reason(map({ amenity: 'pub', opening_hours: v })), v).toBe('imported');
  });

  it('a place that is not food or drink stays not_food_or_drink (one reason a place)', () => {
    expect(reason(map({ amenity: 'bank', disused: 'yes' }))).toBe('not_food_or_drink');
  });
});

const LONDON = 'osm-london-pubs/london_pubs_overpass_2024-11-25.geojson';

describe.runIf(hasShared(LONDON))('London pubs: disused and closed pubs against the raw file', async () => {
  // Oracle: the raw GeoJSON read with JSON.parse, tags compared by hand.
  const raw = JSON.parse(readFileSync(sharedFile(LONDON), 'utf8')) as { features: Array<{ properties: Record<string, unknown> }> };
  const ids = (keep: (p: Record<string, unknown>) => boolean): string[] =>
    raw.features.filter((f) => f.properties.amenity === 'pub' && typeof f.properties.name === 'string' && keep(f.properties)).map((f) => String(f.properties['@id'])).sort();
  const disused = ids((p) => p.disused === 'yes');
  const closed = ids((p) => typeof p.opening_hours === 'string' && ['closed', 'off'].includes(p.opening_hours.trim().toLowerCase()) && p.disused !== 'yes');
  const reopened = ids((p) => p['disused:amenity'] !== undefined && p.disused !== 'yes');
  const { records, report } = await collectRun(importOsm(sharedFile(LONDON)));
  const refs = (r: string): string[] => (report.skipReasons.get(r)?.examples ?? []).map((e) => e.split(' ')[0]!).sort();

  it('the 3 disused=yes pubs (Kent House Tavern, The Lambeth Walk, Royal Horse Guardsman) are skipped as disused', () => {
    expect(disused).toHaveLength(3);
    expect(report.skipReasons.get('disused')?.count).toBe(disused.length);
    expect(refs('disused')).toEqual(disused);
  });

  it('the 4 pubs with opening_hours closed (one "Closed") are skipped as closed_all_week', () => {
    expect(closed).toHaveLength(4);
    expect(report.skipReasons.get('closed_all_week')?.count).toBe(closed.length);
    expect(refs('closed_all_week')).toEqual(closed);
  });

  it('none of them is written; the 2 pubs tagged amenity=pub beside disused:amenity=pub are', () => {
    const written = new Set(records.map((r) => r.id.slice(4)));
    expect([...disused, ...closed].filter((id) => written.has(id))).toEqual([]);
    expect(reopened).toEqual(['way/110753811', 'way/264128874']);
    expect(reopened.filter((id) => written.has(id))).toEqual(reopened);
    expect(report.balanced()).toBe(true);
  });
});
