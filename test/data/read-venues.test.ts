import { Readable } from 'node:stream';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readVenues } from '../../src/data/read-venues.js';
import { isVenueSearchError } from '../../src/errors.js';

const redLion = { id: 'v1', name: 'The Red Lion', location: { type: 'Point', coordinates: [51.5101, -0.1340] } };
const crown = { id: 'v2', name: 'The Crown', location: { type: 'Point', coordinates: [53.4808, -2.2426] }, catersFlags: ['vegan'] };

const dir = mkdtempSync(join(tmpdir(), 'venues-'));
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

async function expectError(promise: Promise<unknown>, pattern: RegExp, fields: Record<string, unknown>): Promise<void> {
  try {
    await promise;
  } catch (err) {
    expect(isVenueSearchError(err)).toBe(true);
    expect((err as Error).message).toMatch(pattern);
    for (const [k, v] of Object.entries(fields)) expect((err as unknown as Record<string, unknown>)[k]).toEqual(v);
    return;
  }
  throw new Error('expected an error');
}

describe('readVenues formats', () => {
  it('NDJSON, JSON array and GeoJSON give the same records; GeoJSON [lon, lat] becomes [lat, lon]', async () => {
    const nd = await readVenues(file('a.ndjson', `${JSON.stringify(redLion)}\n\n${JSON.stringify(crown)}\n`));
    const arr = await readVenues(file('a.json', JSON.stringify([redLion, crown], null, 2)));
    const features = [redLion, crown].map(({ location, ...props }) => ({
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [location.coordinates[1], location.coordinates[0]] },
      properties: props,
    }));
    const geo = await readVenues(file('a.geojson', JSON.stringify({ type: 'FeatureCollection', name: 'pubs', features })));
    expect(nd.format).toBe('ndjson');
    expect(arr.format).toBe('json');
    expect(geo.format).toBe('geojson');
    expect(arr.venues).toEqual(nd.venues);
    expect(geo.venues).toEqual(nd.venues);
    // A swapped lat/lon cannot pass: the Red Lion in Soho is at latitude 51.5.
    expect(geo.venues.find((v) => v.name === 'The Red Lion')!.location.coordinates[0]).toBeCloseTo(51.5101, 6);
  });

  it('sniffs the format of a .json file holding NDJSON or a FeatureCollection', async () => {
    expect((await readVenues(file('nd.json', `${JSON.stringify(redLion)}\n${JSON.stringify(crown)}\n`))).format).toBe('ndjson');
    const fc = { type: 'FeatureCollection', features: [{ type: 'Feature', id: 'f1', geometry: { type: 'Point', coordinates: [-0.1, 51.5] }, properties: { name: 'X' } }] };
    const r = await readVenues(file('fc.json', JSON.stringify(fc, null, 1)));
    expect(r.format).toBe('geojson');
    expect(r.venues[0]!.id).toBe('f1');
  });

  // audit 65a F8: a FeatureCollection pretty-printed with sorted keys ("features" first, Python's
  // json.dump(indent=2, sort_keys=True)) whose first features fill 4 KiB was sniffed as NDJSON
  // ("not a venues file"), under a name without .geojson (serve's held file, /proc/<pid>/fd/<n>)
  it('sniffs a pretty-printed FeatureCollection whose "type" comes after 4 KiB of features', async () => {
    const long = 'Fine ales and a long history. '.repeat(60); // 1,800 characters (the field holds up to 2,000)
    const feature = (id: string, lon: number, lat: number) => ({ geometry: { coordinates: [lon, lat], type: 'Point' }, properties: { id, name: id, wordOnTheStreet: long }, type: 'Feature' });
    const fc = { features: [feature('a', -0.134, 51.5101), feature('b', -2.2426, 53.4808), feature('c', -1.5576, 53.8221)], type: 'FeatureCollection' };
    for (const text of [JSON.stringify(fc, null, 2), JSON.stringify(fc, null, 2).replace('{\n  "features"', '{"features"'), JSON.stringify(fc).replace('[{', '[\n{')]) {
      expect(text.slice(0, 4096)).not.toContain('FeatureCollection');
      const r = await readVenues(file('held-17', text));
      expect(r.format).toBe('geojson');
      // the oracle: the features' own [lon, lat], read back as [lat, lon]
      expect(r.venues.map((v) => [v.id, ...v.location.coordinates])).toEqual([
        ['a', 51.5101, -0.134],
        ['b', 53.4808, -2.2426],
        ['c', 53.8221, -1.5576],
      ]);
    }
    // a broken NDJSON record on line 1 is still reported as one
    await expectError(readVenues(file('broken-17', `{"id": "v1", "name": \n${JSON.stringify(crown)}\n`)), /line 1/, { line: 1 });
  });

  it('streams from any async iterable, in chunks that split records and strings', async () => {
    const text = JSON.stringify([redLion, crown, { ...redLion, id: 'v3', name: 'Brace {[,"]} yourself' }]);
    const chunks = text.match(/[\s\S]{1,7}/g)!;
    const r = await readVenues(Readable.from(chunks), { name: 'chunks.json' });
    expect(r.venues.map((v) => v.name)).toEqual(['The Red Lion', 'The Crown', 'Brace {[,"]} yourself']);
  });

  it('empty input gives no venues', async () => {
    expect((await readVenues(file('empty.ndjson', ''))).venues).toEqual([]);
    expect((await readVenues(file('empty.json', '[]'))).venues).toEqual([]);
  });

  it('reports progress with records and bytes, ending with the total', async () => {
    const lines = Array.from({ length: 25_000 }, (_, i) => JSON.stringify({ ...redLion, id: `p${i}` })).join('\n');
    const path = file('many.ndjson', lines);
    const seen: Array<{ records: number; bytes: number; totalBytes: number | undefined }> = [];
    await readVenues(path, { onProgress: (p) => seen.push({ ...p }) });
    expect(seen.map((s) => s.records)).toEqual([10_000, 20_000, 25_000]);
    expect(seen.at(-1)!.bytes).toBe(Buffer.byteLength(lines));
    expect(seen.at(-1)!.totalBytes).toBe(Buffer.byteLength(lines));
  });
});

describe('readVenues bad input names the file, line, record id, field and value', () => {
  it('malformed JSON line', async () => {
    const path = file('bad1.ndjson', `${JSON.stringify(redLion)}\n{"id": "v2", "name": \n`);
    await expectError(readVenues(path), /bad1\.ndjson: line 2: malformed JSON/, { code: 'invalid_data', line: 2 });
  });

  it('missing required field', async () => {
    const { name: _n, ...noName } = crown;
    const path = file('bad2.ndjson', `${JSON.stringify(redLion)}\n${JSON.stringify(noName)}\n`);
    await expectError(readVenues(path), /bad2\.ndjson: line 2, venue "v2", field name/, { code: 'invalid_venue', line: 2, recordId: 'v2', param: 'name' });
  });

  it('wrong type', async () => {
    const path = file('bad3.ndjson', JSON.stringify({ ...redLion, isChain: 'yes' }));
    await expectError(readVenues(path), /line 1, venue "v1", field isChain: .*got "yes"/, { param: 'isChain', value: 'yes' });
  });

  it('out-of-range coordinate', async () => {
    const path = file('bad4.ndjson', JSON.stringify({ ...redLion, location: { type: 'Point', coordinates: [151.2, -0.1] } }));
    await expectError(readVenues(path), /field location\.coordinates\[0\].*got 151\.2/, { param: 'location.coordinates[0]', value: 151.2 });
  });

  it('unknown caters flag', async () => {
    const path = file('bad5.ndjson', JSON.stringify({ ...crown, catersFlags: ['vegan', 'paleo'] }));
    // the flag's place in the list, as every other list field names it (audit 61d)
    await expectError(readVenues(path), /field catersFlags\[1\]: unknown caters flag; got "paleo"/, { param: 'catersFlags[1]' });
  });

  it('a time zone Intl does not know', async () => {
    const path = file('bad-zone.ndjson', [redLion, { ...crown, timeZone: 'Mars/Olympus_Mons' }].map((v) => JSON.stringify(v)).join('\n'));
    await expectError(readVenues(path), /bad-zone\.ndjson: line 2, venue "v2", field timeZone: must be an IANA time zone name.*got "Mars\/Olympus_Mons"/, {
      code: 'invalid_venue',
      file: path, // the path as given, not only its last part
      line: 2,
      recordId: 'v2',
      param: 'timeZone',
      value: 'Mars/Olympus_Mons',
    });
    // the oracle: every zone Intl lists is accepted, in the case Intl writes it
    const zones = Intl.supportedValuesOf('timeZone');
    const ok = file('zones.ndjson', zones.map((z, k) => JSON.stringify({ ...redLion, id: `z${k}`, timeZone: z })).join('\n'));
    expect((await readVenues(ok)).venues.map((v) => v.timeZone)).toEqual(zones);
  });

  it('opening hours the engine cannot compile (a closeNextDay slot over 24 hours), in every hours field', async () => {
    const longNight = [{ days: ['Fri'], timeSlots: [{ open: '20:00', close: '22:00', isClosed: false, closeNextDay: true }] }];
    for (const field of ['regularOpeningHours', 'kitchenOpeningHours', 'holidayOpeningHours']) {
      const path = file(`bad-hours-${field}.ndjson`, [redLion, { ...crown, [field]: longNight }].map((v) => JSON.stringify(v)).join('\n'));
      await expectError(readVenues(path), new RegExp(`line 2, venue "v2", field ${field}\\[0\\]\\.timeSlots\\[0\\]\\.close: must be at or before open \\(20:00\\).*got "22:00"`), {
        code: 'invalid_venue',
        line: 2,
        recordId: 'v2',
        param: `${field}[0].timeSlots[0].close`,
        value: '22:00',
      });
      // 24:00 opens nothing: the schema's clock pattern allows it, the hours rule does not
      const at24 = [{ days: ['Sat'], timeSlots: [{ open: '24:00', close: '02:00', isClosed: false, closeNextDay: false }] }];
      const path24 = file(`bad-open-${field}.ndjson`, JSON.stringify({ ...crown, [field]: at24 }));
      await expectError(readVenues(path24), /line 1, venue "v2", field .*\.open: must be a time HH:MM from 00:00 to 23:59; got "24:00"/, { param: `${field}[0].timeSlots[0].open` });
    }
    // the same hours as a slot to 02:00 the next day are fine
    const fine = [{ days: ['Fri'], timeSlots: [{ open: '20:00', close: '02:00', isClosed: false, closeNextDay: true }] }];
    const okPath = file('ok-hours.ndjson', JSON.stringify({ ...crown, regularOpeningHours: fine }));
    expect((await readVenues(okPath)).venues).toHaveLength(1);
  });

  it('duplicate id', async () => {
    const path = file('bad6.ndjson', [redLion, crown, { ...crown, name: 'Another Crown' }].map((v) => JSON.stringify(v)).join('\n'));
    await expectError(readVenues(path), /line 3: duplicate venue id "v2" \(first at line 2\)/, { code: 'duplicate_id', line: 3 });
  });

  it('a GeoJSON feature that is not a point, and a truncated JSON array', async () => {
    const fc = { type: 'FeatureCollection', features: [{ type: 'Feature', geometry: { type: 'Polygon', coordinates: [] }, properties: { id: 'x', name: 'X' } }] };
    await expectError(readVenues(file('poly.geojson', JSON.stringify(fc))), /field geometry\.type: must be a Point; got "Polygon" \(a raw OpenStreetMap export is imported first: `venue-search import osm`\)/, { param: 'geometry.type' });
    await expectError(readVenues(file('cut.json', JSON.stringify([redLion, crown]).slice(0, -20))), /ends early/, { code: 'invalid_data' });
  });

  it('a missing file', async () => {
    await expectError(readVenues(join(dir, 'nope.ndjson')), /^cannot read venue file .*nope\.ndjson: not found$/, { code: 'invalid_data' });
  });

  it('skip mode keeps the good records and returns exactly the bad ones', async () => {
    const lines = [
      JSON.stringify(redLion),
      '{not json',
      JSON.stringify({ ...crown, location: { type: 'Point', coordinates: [0, 200] } }),
      JSON.stringify(crown),
      JSON.stringify({ ...crown, name: 'dup' }),
    ];
    const r = await readVenues(file('mixed.ndjson', lines.join('\n')), { onInvalid: 'skip' });
    expect(r.venues.map((v) => v.id)).toEqual(['v1', 'v2']);
    expect(r.rejects.map((x) => [x.line, x.error.code])).toEqual([
      [2, 'invalid_data'],
      [3, 'invalid_venue'],
      [5, 'duplicate_id'],
    ]);
  });
});
