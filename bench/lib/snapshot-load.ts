/**
 * The snapshot half of the "load + build" workload (issue 2): the engine built from the
 * NDJSON is written as a snapshot (timed: the one-off cost), then loaded from it the way a
 * restarted service loads it (timed: load, and load + the first POINT search with
 * preferences). Untimed check: the restored engine answers 20 POINT and 20 PATH searches
 * exactly as the engine built from the records.
 */
import { rmSync, statSync } from 'node:fs';
import type { Engine } from '../../src/engine.js';
import { readSnapshot } from '../../src/snapshot/read-snapshot.js';
import { writeSnapshot } from '../../src/snapshot/write-snapshot.js';
import { isDeepStrictEqual } from 'node:util';
import { timeOnce } from './measure.js';
import { NOW, PREFS, cityRoutes, pathBody, pointBody, pointCentres } from './queries.js';

export interface SnapshotFigures {
  readonly writeMs: number;
  readonly loadMs: number;
  readonly loadAndFirstSearchMs: number;
  readonly fileMegabytes: number;
  readonly checkedSearches: number;
}

export function snapshotFigures(engine: Engine, path: string): SnapshotFigures {
  const write = timeOnce(() => writeSnapshot(engine, path));
  const first = pointBody(pointCentres()[0]!, 1000, PREFS);
  const load = timeOnce(() => readSnapshot(path));
  const search = timeOnce(() => load.value.search(first, { limit: 20, now: NOW }));
  const restored = load.value;
  const bodies = [...pointCentres().slice(0, 20).map((c) => pointBody(c, 1000, PREFS)), ...cityRoutes().slice(0, 20).map((r) => pathBody(r, 200))];
  for (const body of bodies) {
    if (!isDeepStrictEqual(restored.search(body, { limit: 20, now: NOW }), engine.search(body, { limit: 20, now: NOW }))) {
      throw new Error(`the snapshot engine answers ${JSON.stringify(body)} differently from the engine built from the records`);
    }
  }
  const fileMegabytes = statSync(path).size / 1e6;
  rmSync(path, { force: true });
  return { writeMs: write.ms, loadMs: load.ms, loadAndFirstSearchMs: load.ms + search.ms, fileMegabytes, checkedSearches: bodies.length };
}
