/**
 * A child process for test/snapshot/damaged-sections.test.ts: loads each damaged snapshot it
 * is given, then (once loaded) searches, finds and decodes every record, printing one JSON
 * line per file: how it ended. Run in a child with a deadline, so that a load or a query
 * that never returns (audit 69c F1) fails the test instead of holding it.
 * argv: <json: { files: string[], at: { lat, lon }, now }>
 */
import { readSnapshot } from '../../../src/snapshot/read-snapshot.js';
import { VenueSearchError } from '../../../src/errors.js';

const { files, at, now } = JSON.parse(process.argv[2]!) as { files: string[]; at: { lat: number; lon: number }; now: number };
for (const file of files) {
  let stage = 'load';
  try {
    const engine = readSnapshot(file);
    stage = 'query';
    const found = engine.search({ locations: [at], mode: { mode: 'POINT', maxDistance: 5000 } }, { limit: 50, now });
    for (const e of found.establishments) engine.advanced(e.id, { now });
    engine.find({ q: 'the', lat: at.lat, lon: at.lon }, { now });
    let records = 0;
    for (const record of engine.currentRecords()) if (record.id !== '') records++;
    console.log(JSON.stringify({ file, stage, outcome: 'answered', records }));
  } catch (e) {
    const code = e instanceof VenueSearchError ? e.code : `not a VenueSearchError: ${(e as Error).constructor.name}`;
    console.log(JSON.stringify({ file, stage, outcome: 'threw', code, message: (e as Error).message }));
  }
}
