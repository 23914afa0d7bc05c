/**
 * Place names holding letters that NFKD does not decompose (ø, æ, ł, ß, þ): typed in ASCII
 * they are the same place, as venue names are the same words in find (audit 67d F1: "Tromso",
 * "Lodz" and "Wroclaw" were unknown places while find matched "lodz" to "Łódź Bistro").
 * Oracles: the venues' own centroid, computed here; a learnt-places JSON written by hand as a
 * snapshot of 2026-11-29 held it.
 */
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine.js';
import { LearntPlaces } from '../../src/places/learnt-places.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { geodesic } from '../support/oracle.js';

/** 30 venues around (lat, lon), each addressed in the area `area`. */
function addressedIn(area: string, lat: number, lon: number): VenueRecord[] {
  return Array.from({ length: 30 }, (_, i) => ({
    id: `v${i}`,
    name: `The Test Arms ${i}`,
    location: { type: 'Point', coordinates: [lat + 0.0004 * ((i % 6) - 2.5), lon + 0.0006 * (Math.floor(i / 6) - 2)] },
    formattedAddress: `${i} High Street, ${area}, London SE1 6TJ`,
  }));
}

function meanPoint(records: readonly VenueRecord[]): { lat: number; lon: number } {
  let lat = 0;
  let lon = 0;
  for (const r of records) {
    lat += r.location.coordinates[0];
    lon += r.location.coordinates[1];
  }
  return { lat: lat / records.length, lon: lon / records.length };
}

describe('an area learnt from addresses spelt with ø and æ, named in ASCII', () => {
  const venues = addressedIn('Ærøbyhavn', 51.4945, -0.1);
  const engine = createEngine(venues);
  const centre = meanPoint(venues);

  it.each(['Ærøbyhavn', 'Aerobyhavn', 'AEROBYHAVN', 'aerøbyhavn'])('"%s" is the area, at the venues\' centre (within 100 m)', (name) => {
    const found = engine.find({ q: 'arms', location: name, limit: 1 }, { now: 0 });
    expect(found.resolvedPlace?.name).toBe('Ærøbyhavn');
    expect(geodesic(found.searchLocation!.Lat, found.searchLocation!.Lon, centre.lat, centre.lon)).toBeLessThan(100);
  });
});

describe('learnt places of a snapshot written before those letters were folded (2026-11-30)', () => {
  // as a snapshot of 2026-11-29 saved them: the key kept the letters ("ærøbyhavn")
  const place = { name: 'Ærøbyhavn', lat: 51.4945, lon: -0.1, kind: 'area' };
  const restored = LearntPlaces.fromJSON({ areas: [['ærøbyhavn', place], ['borough', { name: 'Borough', lat: 51.5, lon: -0.09, kind: 'area' }]], postcodes: [] });

  it('the area is found by its folded key, and other keys are as saved', () => {
    expect(restored.area('aerobyhavn')).toEqual(place);
    expect(restored.area('borough')?.name).toBe('Borough');
  });
});
