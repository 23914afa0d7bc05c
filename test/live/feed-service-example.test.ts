/**
 * docs/updates.md's worked example, examples/feed-service.mjs, run as written (its import of
 * `venue-search-engine` resolves to src/ through vitest's alias) against a fake feed:
 * - random changes to the fixtures (edits, new venues, removals), some feeds holding a bad
 *   record or one venue twice;
 * - saves at random, and crashes at random (the service dropped, then opened again from its
 *   last save and caught up from the feed);
 * - after every feed, the engine holds exactly the expected venues, which the test keeps by
 *   itself (the valid changes applied in order), and answers searches as an engine built
 *   from scratch on them does.
 * Also: the example in docs/updates.md is this file, byte for byte.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/engine.js';
import { readVenues } from '../../src/data/read-venues.js';
import { writeSnapshot } from '../../src/snapshot/write-snapshot.js';
import type { VenueRecord } from '../../src/schema/venue.js';
import { prng } from '../support/oracle.js';

const EXAMPLE = 'examples/feed-service.mjs';

interface FeedAnswer {
  changes: ({ venue: unknown } | { removed: string })[];
  cursor: number;
}
interface FeedService {
  engine: Engine;
  applyFeed(): Promise<void>;
  save(): void;
}
type OpenFeedService = (options: { snapshot: string; feed: { changesSince(cursor: number | null): Promise<FeedAnswer> }; report?: (line: string) => void }) => FeedService;

/** One change the upstream made: a record (valid or not, as the test built it) or a removal. */
type Change = { id: string; record: VenueRecord; valid: boolean } | { id: string; removed: true };

const dir = mkdtempSync(join(tmpdir(), 'feed-service-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the worked example of docs/updates.md (a feed of changes every minute)', () => {
  it('is examples/feed-service.mjs, byte for byte', () => {
    const doc = readFileSync('docs/updates.md', 'utf8');
    const blocks = [...doc.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);
    expect(blocks).toContain(readFileSync(EXAMPLE, 'utf8'));
  });

  it('loses nothing across saves and crashes; skips bad records; keeps the last of a venue sent twice', async () => {
    const { openFeedService } = (await import(`../../${EXAMPLE}`)) as { openFeedService: OpenFeedService };
    const { venues } = await readVenues('fixtures/venues.ndjson');
    const snapshot = join(dir, 'venues.vsnap');
    writeSnapshot(createEngine(venues, { validate: false }), snapshot);

    // the upstream: every change in order; a feed answers those after the cursor
    const log: Change[] = [];
    const feed = {
      async changesSince(cursor: number | null): Promise<FeedAnswer> {
        const changes = log.slice(cursor ?? 0).map((c) => ('removed' in c ? { removed: c.id } : { venue: c.record }));
        return { changes, cursor: log.length };
      },
    };

    // the oracle: the valid changes applied in order (a bad record is as if never sent)
    const expected = new Map(venues.map((v) => [v.id, v]));
    const rnd = prng(32);
    const ids = venues.map((v) => v.id);
    const pick = () => ids[Math.floor(rnd() * ids.length)]!;
    let fresh = 0;
    const reports: string[] = [];
    let service = openFeedService({ snapshot, feed, report: (line) => reports.push(line) });
    let crashes = 0;
    let saves = 0;

    for (let minute = 0; minute < 30; minute++) {
      const changes = 1 + Math.floor(rnd() * 30);
      for (let k = 0; k < changes; k++) {
        const roll = rnd();
        if (roll < 0.35) {
          const base = expected.get(pick()) ?? venues[0]!;
          const record = { ...base, name: `${base.name} (edited ${minute}.${k})` };
          log.push({ id: record.id, record, valid: true });
        } else if (roll < 0.6) {
          const id = `new-${fresh++}`;
          const [lat, lon] = venues[Math.floor(rnd() * venues.length)]!.location.coordinates;
          const record: VenueRecord = { id, name: `New place ${id}`, location: { type: 'Point', coordinates: [lat + 0.001, lon] }, primaryGenre: 'cafe' };
          log.push({ id, record, valid: true });
          ids.push(id);
        } else if (roll < 0.9) {
          log.push({ id: pick(), removed: true });
        } else {
          // a bad record: refused, so its venue keeps the state it had
          const base = expected.get(pick()) ?? venues[1]!;
          log.push({ id: base.id, record: { ...base, location: { type: 'Point', coordinates: [95, 0] } }, valid: false });
        }
      }
      // what the engine must hold once this minute's feed is in: the last valid state of each id
      for (const change of log.slice(-changes)) {
        if ('removed' in change) expected.delete(change.id);
        else if (change.valid) expected.set(change.id, change.record);
      }

      await service.applyFeed();
      // each minute the venues it touched; every fifth minute, after a crash and at the end, all of them
      const touched = new Set(log.slice(-changes).map((c) => c.id));
      expectHoldsSome(service.engine, expected, touched, `minute ${minute}`);
      if (minute % 5 === 4) expectHolds(service.engine, expected, `minute ${minute}`);

      const next = rnd();
      if (next < 0.2) {
        service.save();
        saves++;
      } else if (next < 0.45) {
        // a crash: what was not saved is gone from memory; open again, catch up, then answer
        service = openFeedService({ snapshot, feed, report: (line) => reports.push(line) });
        crashes++;
        await service.applyFeed();
        expectHolds(service.engine, expected, `minute ${minute}, after a crash`);
      }
    }
    expectHolds(service.engine, expected, 'at the end');
    expect(crashes).toBeGreaterThan(3);
    expect(saves).toBeGreaterThan(3);
    expect(reports.some((line) => line.startsWith('feed change skipped: ') && line.includes('location.coordinates[0]'))).toBe(true);
  }, 120_000);
});

/** The engine holds as many venues as `expected`, and each of `ids` in the state expected (its name, or absent). */
function expectHoldsSome(engine: Engine, expected: Map<string, VenueRecord>, ids: Iterable<string>, context: string): void {
  expect(engine.size, context).toBe(expected.size);
  const wrong: string[] = [];
  for (const id of ids) {
    const name = expected.get(id)?.name;
    let held: string | undefined;
    try {
      held = engine.basic(id).name;
    } catch (err) {
      if ((err as { code?: string }).code !== 'venue_not_found') throw err;
    }
    if (held !== name) wrong.push(`${id}: held ${held}, expected ${name}`);
  }
  expect(wrong, context).toEqual([]);
}

/** The engine holds exactly `expected` (ids, names) and searches as a fresh build on them does. */
function expectHolds(engine: Engine, expected: Map<string, VenueRecord>, context: string): void {
  expectHoldsSome(engine, expected, expected.keys(), context);
  const fresh = createEngine([...expected.values()], { validate: false });
  const now = Date.UTC(2026, 5, 1, 12);
  for (const [lat, lon] of [[53.8, -1.55], [51.51, -0.13], [55.95, -3.19]] as const) {
    const body = { locations: [{ lat, lon }], mode: { mode: 'POINT', maxDistance: 3000 } };
    expect(engine.search(body, { now, limit: 50 }), context).toEqual(fresh.search(body, { now, limit: 50 }));
  }
}
