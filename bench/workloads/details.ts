/**
 * Details workloads: basic, advanced and menus by id (interface 2.8 to 2.10), for ids drawn
 * (seeded) half from the venues that have images and menus, half from all venues. Beside
 * the floor a user could not go below: a Map from id to record and a structuredClone of it.
 * Untimed check: every id resolves and the menus returned equal the record's.
 */
import { isDeepStrictEqual } from 'node:util';
import { Rng } from '../../scripts/fixtures/random.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import type { BenchContext } from '../lib/context.js';
import { measure, timeOnce } from '../lib/measure.js';
import { NOW } from '../lib/queries.js';
import type { WorkloadResult } from '../lib/report.js';

export function detailsWorkloads(ctx: BenchContext): WorkloadResult[] {
  const { engine, venues } = ctx;
  const rng = new Rng(11);
  const rich = venues.filter((v) => v.menus !== undefined);
  const ids = Array.from({ length: 400 }, (_, k) => (k % 2 === 0 && rich.length > 0 ? rng.pick(rich) : rng.pick(venues)).id);
  const byId = timeOnce(() => new Map<string, VenueRecord>(venues.map((v) => [v.id, v])));
  let menus = 0;
  for (const id of ids) {
    const m = engine.menus(id);
    if (!isDeepStrictEqual(m, byId.value.get(id)!.menus ?? [])) throw new Error(`menus of ${id} differ from the record's`);
    engine.basic(id, { now: NOW });
    engine.advanced(id, { now: NOW });
    menus += m.length;
  }
  let a = 0;
  const next = () => ids[a++ % ids.length]!;
  const timings = measure(
    [
      ['ours: basic details by id', () => engine.basic(next(), { now: NOW }).name.length],
      ['ours: advanced details by id', () => engine.advanced(next(), { now: NOW }).name.length],
      ['ours: menus by id', () => engine.menus(next()).length],
      ['Map.get + structuredClone of the record', () => structuredClone(byId.value.get(next())!).name.length],
    ],
    { timeMs: ctx.timeMs },
  );
  return [
    {
      workload: 'details by id',
      params: { venues: ctx.label, ids: ids.length, withMenusAndImages: rich.length },
      timings,
      figures: { 'Map<id, record> build for the baseline (ms)': byId.ms },
      checks: { 'menus equal the records': `${ids.length} ids, ${menus} menus` },
    },
  ];
}
