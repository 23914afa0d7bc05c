import type { Engine } from '../engine.js';
import type { VenueRecord } from '../schema/venue.js';
import type { Change } from './change-log.js';

/** The last state each venue named by `changes` is left in: its record, or null (removed). */
function foldChanges(changes: readonly Change[]): Map<string, VenueRecord | null> {
  const last = new Map<string, VenueRecord | null>();
  for (const c of changes) {
    if (c.op === 'upsert') for (const r of c.records) last.set(r.id, r);
    else for (const id of c.ids) last.set(id, null);
  }
  return last;
}

/** Applies logged batches to an engine, folded to the last state of each venue first (one upsert, one remove). */
export function applyLogged(engine: Engine, ...changes: Change[]): void {
  const { upserts, removes } = lastStates(changes);
  if (upserts.length > 0) engine.upsert(upserts);
  if (removes.length > 0) engine.remove(removes);
}

function lastStates(changes: readonly Change[]): { upserts: VenueRecord[]; removes: string[] } {
  const upserts: VenueRecord[] = [];
  const removes: string[] = [];
  for (const [id, r] of foldChanges(changes)) {
    if (r === null) removes.push(id);
    else upserts.push(r);
  }
  return { upserts, removes };
}
