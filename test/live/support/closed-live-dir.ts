/**
 * A closed live directory for the start-up tests: `<tmp>/<name>` over a snapshot of
 * `rows` 0-99 with one batch (rows 100-199) in its change log, and how to open it again.
 */
import { join } from 'node:path';
import { LiveVenues } from '../../../src/changelog/live-venues.js';
import { loadEngineFile } from '../../../src/cli/load-engine.js';
import { createEngine } from '../../../src/engine.js';
import type { VenueRecord } from '../../../src/schema/venue.js';
import { writeSnapshot } from '../../../src/snapshot/write-snapshot.js';

export async function closedLiveDir(tmp: string, rows: readonly VenueRecord[], name: string): Promise<{ dir: string; open: () => Promise<LiveVenues> }> {
  const data = join(tmp, `${name}.vsnap`);
  writeSnapshot(createEngine(rows.slice(0, 100)), data);
  const dir = join(tmp, name);
  const open = () => LiveVenues.open({ dataPath: data, dir, compactAfter: 0, load: async (p) => (await loadEngineFile(p, (m) => { throw new Error(m); })).engine });
  const live = await open();
  await live.upsert(rows.slice(100, 200));
  await live.close();
  return { dir, open };
}
