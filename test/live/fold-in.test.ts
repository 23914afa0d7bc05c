/**
 * The compaction worker's fold (Engine.foldIn through foldLogged: a change log's last states
 * folded straight into a new base, no runs) against an engine built from scratch on the
 * expected records: the same searches, finds, details and vocabulary, round after round
 * (each fold's base is the next one's), places learnt venue by venue kept as the worker
 * keeps them.
 */
import { describe, expect, it } from 'vitest';
import type { Change as LoggedChange } from '../../src/changelog/change-log.js';
import { foldLogged } from '../../src/changelog/fold-changes.js';
import { createEngine } from '../../src/engine.js';
import { loadFixtureVenues } from '../search/support.js';
import { ChangeStream, seeded, type Change } from './change-stream.js';
import { compareWithScratch } from './oracle-compare.js';

const STALE_WORDS = ['tapas', 'ramen', 'gastropub', 'taproom', 'creperie', 'buzzing', 'hidden_gem', 'industrial', 'serves_brunch'];

const logged = (c: Change): LoggedChange => (c.kind === 'upsert' ? { op: 'upsert', records: c.records } : { op: 'remove', ids: c.ids });

describe('Engine.foldIn (the compaction worker folding a change log)', () => {
  it('12 rounds of 1..12 batches folded in equal an engine built from scratch; words of gone genres leave', () => {
    const start = loadFixtureVenues();
    // As the worker holds its base: taking changes, its places learnt venue by venue.
    const engine = createEngine(start);
    engine.findStructures();
    engine.remove([]);
    engine.learntPlaces();
    const stream = new ChangeStream(start, 29);
    const rnd = seeded(777);
    const stale = () => ({ ids: stream.everId, words: STALE_WORDS, names: stream.goneNames });
    for (let round = 0; round < 12; round++) {
      const batches: LoggedChange[] = [];
      const count = 1 + Math.floor(rnd() * 12);
      for (let b = 0; b < count; b++) {
        const { change } = stream.batch(1 + Math.floor(rnd() ** 2 * 400), 0);
        // A logged removal names only venues current when it was accepted.
        const c: Change = change.kind === 'remove' ? { kind: 'remove', ids: change.ids.filter((id) => stream.expected.has(id)) } : change;
        stream.apply(c);
        batches.push(logged(c));
      }
      foldLogged(engine, ...batches);
      expect(engine.pendingChanges).toBe(0);
      compareWithScratch(engine, [...stream.expected.values()], 500 + round, stale());
    }
    // Every venue using two of the stream's new genres goes: the words leave the vocabulary.
    const leaving = [...stream.expected.values()].filter((r) => [r.primaryGenre, ...(r.additionalGenres ?? [])].some((g) => g === 'tapas' || g === 'ramen'));
    expect(leaving.some((r) => r.primaryGenre === 'tapas')).toBe(true);
    const gone: Change = { kind: 'remove', ids: leaving.map((r) => r.id) };
    stream.apply(gone);
    foldLogged(engine, logged(gone));
    expect(engine.vocabulary().establishmentFilters).not.toContain('tapas');
    compareWithScratch(engine, [...stream.expected.values()], 600, stale(), { searches: 40, finds: 30, details: 20 });
    // With changes pending (a failed job's), it applies them and compacts.
    const pending = stream.batch(200, 0).change;
    const p: Change = pending.kind === 'remove' ? { kind: 'remove', ids: pending.ids.filter((id) => stream.expected.has(id)) } : pending;
    if (p.kind === 'upsert') engine.upsert(p.records);
    else engine.remove(p.ids);
    stream.apply(p);
    const next = stream.batch(150, 0).change;
    const q: Change = next.kind === 'remove' ? { kind: 'remove', ids: next.ids.filter((id) => stream.expected.has(id)) } : next;
    stream.apply(q);
    foldLogged(engine, logged(q));
    expect(engine.pendingChanges).toBe(0);
    compareWithScratch(engine, [...stream.expected.values()], 601, stale());
  }, 300_000);
});
