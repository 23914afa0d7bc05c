import { createHash } from 'node:crypto';
import type { Engine } from '../../src/engine.js';
import { NOW, PREFS, cityRoutes, pathBody, pointBody, pointCentres } from './queries.js';

/** The searches whose answers must be identical from a snapshot and from the records: 20 POINT, 20 PATH. */
export function checkBodies(): object[] {
  return [...pointCentres().slice(0, 20).map((c) => pointBody(c, 1000, PREFS)), ...cityRoutes().slice(0, 20).map((r) => pathBody(r, 200))];
}

/** SHA-256 of the JSON of every check search's first page (limit 20). */
export function answersDigest(engine: Engine): string {
  const hash = createHash('sha256');
  for (const body of checkBodies()) hash.update(JSON.stringify(engine.search(body, { limit: 20, now: NOW })));
  return hash.digest('hex');
}
