/**
 * A snapshot keeps each venue's zone, so one written before a zone correction served the old,
 * wrong zone after an upgrade, for good (audit 75d F1: a café in Dili open 09:00-10:00 was
 * closed at 09:30 local, read as Asia/Makassar, an hour behind). Its header now records the
 * corrections' version (`zoneRules`); under another, the zones of venues in corrected areas
 * are derived again at load. The old file is made here as an older writer made it: the header
 * without `zoneRules` and Dili's zone stored wrong (the name patched in place, same length).
 * Oracle: UTC+9 (Dili, no DST) and UTC+0 (London in December), written by hand.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { readSnapshot } from '../../src/snapshot/read-snapshot.js';
import { writeSnapshot } from '../../src/snapshot/write-snapshot.js';
import { slot } from '../hours/oracles.js';
import { unsealHeader } from '../support/snapshot-header-seal.js';

const tmp = mkdtempSync(join(tmpdir(), 'zone-rules-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const DILI = { lat: -8.556, lon: 125.578 };
const everyDay: VenueRecord['regularOpeningHours'] = [{ days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'], timeSlots: [slot('09:00', '10:00')] }];
const venues: VenueRecord[] = [
  { id: 'dili-cafe', name: 'Cafe Dili', location: { type: 'Point', coordinates: [DILI.lat, DILI.lon] }, regularOpeningHours: everyDay },
  // the record's own zone wins over any correction, as at a build
  { id: 'dili-own-zone', name: 'Cafe Own Zone', location: { type: 'Point', coordinates: [DILI.lat + 0.001, DILI.lon] }, timeZone: 'Asia/Makassar', regularOpeningHours: everyDay },
  { id: 'london-cafe', name: 'Cafe London', location: { type: 'Point', coordinates: [51.5074, -0.1278] }, regularOpeningHours: everyDay },
];

/**
 * isOpen of each venue at `atTime`, as a search answers it (a 10 m circle around the venue):
 * searches read the zone table; details derive the zone from the record at each call.
 */
function openAt(engine: ReturnType<typeof readSnapshot>, atTime: string): Record<string, boolean> {
  const now = Date.parse(atTime);
  return Object.fromEntries(
    venues.map((v) => {
      const [lat, lon] = v.location.coordinates;
      const found = engine.search({ locations: [{ lat, lon }], mode: { mode: 'POINT', maxDistance: 10 } }, { now }).establishments;
      expect(found.map((e) => e.id)).toEqual([v.id]);
      // details agree (they derive the zone from the record)
      expect(engine.basic(v.id, { now }).isOpen, v.id).toBe(found[0]!.isOpen);
      return [v.id, found[0]!.isOpen];
    }),
  );
}

describe('zones of a snapshot written under older zone corrections (audit 75d F1)', () => {
  const current = join(tmp, 'current.vsnap');
  writeSnapshot(createEngine(venues).warm(), current);
  const old = join(tmp, 'old.vsnap');
  const bytes = unsealHeader(Buffer.from(readFileSync(current)));
  const header = bytes.toString('latin1');
  // as a writer before zoneRules: the key absent (renamed, same length), Dili's zone as tz-lookup gave it
  const rules = header.indexOf('"zoneRules":2,');
  expect(rules).toBeGreaterThan(0);
  bytes.write('"zoneRulez":2,', rules, 'latin1');
  const dili = header.indexOf('"Asia/Dili"');
  expect(dili).toBeGreaterThan(0);
  bytes.write('"Asia/Baku"', dili, 'latin1'); // same length; any zone other than UTC+9 serves
  writeFileSync(old, bytes);

  it('the current file keeps its zones: Dili at 09:30 local (00:30 UTC) open, London (09:30 UTC) closed at 00:30', () => {
    expect(openAt(readSnapshot(current, { places: null }), '2026-12-02T00:30:00Z')).toEqual({ 'dili-cafe': true, 'dili-own-zone': false, 'london-cafe': false });
  });

  it('the older file has Dili zoned again (open at 09:30 local), the record that names its zone kept, London untouched', () => {
    const engine = readSnapshot(old, { places: null });
    // 00:30 UTC: 09:30 in Dili (UTC+9), 08:30 in Makassar (UTC+8), 00:30 in London
    expect(openAt(engine, '2026-12-02T00:30:00Z')).toEqual({ 'dili-cafe': true, 'dili-own-zone': false, 'london-cafe': false });
    // 01:30 UTC: 10:30 in Dili (closed), 09:30 in Makassar (open)
    expect(openAt(engine, '2026-12-02T01:30:00Z')).toEqual({ 'dili-cafe': false, 'dili-own-zone': true, 'london-cafe': false });
    // 09:30 UTC: London open
    expect(openAt(engine, '2026-12-02T09:30:00Z')).toEqual({ 'dili-cafe': false, 'dili-own-zone': false, 'london-cafe': true });
  });

  it('written again, the file records this version\'s corrections and the zone', () => {
    const again = join(tmp, 'again.vsnap');
    writeSnapshot(readSnapshot(old, { places: null }), again);
    const text = readFileSync(again).toString('latin1');
    expect(text).toContain('"zoneRules":2,');
    expect(text).toContain('"Asia/Dili"');
    expect(openAt(readSnapshot(again, { places: null }), '2026-12-02T00:30:00Z')).toEqual({ 'dili-cafe': true, 'dili-own-zone': false, 'london-cafe': false });
  });
});
