// readVenues with worker threads (option `threads`) must read exactly what one thread reads:
// the same records in the same order, the same first error in `throw` mode, the same
// rejects in `skip` mode. The bundled fixtures (about 7 MB, 3,000 lines: 1 MB blocks of some 430 lines) are used,
// with bad lines placed in different blocks.
import { describe, expect, it } from 'vitest';
import { badRows, errorOf, fixtureFolder, fixtureLines } from './support/fixture-files.js';
import { createEngineFromFile } from '../../src/data/read-engine.js';
import { readVenues } from '../../src/data/read-venues.js';
import { ValidatePool } from '../../src/data/validate-pool.js';
import { validateVenue } from '../../src/data/validate-venue.js';
import { isVenueSearchError } from '../../src/errors.js';
import { encodedVenues } from '../../src/store/venue-encoder.js';
import { CHAIN_NO, CHAIN_UNKNOWN, CHAIN_YES } from '../../src/store/venue-store-builder.js';

const lines = fixtureLines;
const { write } = fixtureFolder('venues-threads-');

describe('readVenues with worker threads', () => {
  it('reads the records a line-by-line JSON.parse + validateVenue reads, at 1, 2 and 3 threads', async () => {
    const path = write('ok.ndjson', lines);
    const oracle = lines.map((l, i) => validateVenue(JSON.parse(l), { line: i + 1 }));
    for (const threads of [1, 2, 3]) {
      const { venues, rejects } = await readVenues(path, { threads });
      expect(rejects).toEqual([]);
      expect(venues).toEqual(oracle);
    }
  }, 60_000);

  it('throws the same first error at 2 threads as at 1', async () => {
    const path = write('bad.ndjson', badRows());
    const one = await errorOf(readVenues(path, { threads: 1 }));
    expect(one).toMatchObject({ code: 'invalid_venue', line: 501, param: 'isChain', value: 'yes' });
    expect(await errorOf(readVenues(path, { threads: 2 }))).toEqual(one);
  }, 60_000);

  it('rejects the same records at 2 threads as at 1 in skip mode', async () => {
    const path = write('bad.ndjson', badRows());
    const summary = async (threads: number) => {
      const { venues, rejects } = await readVenues(path, { threads, onInvalid: 'skip' });
      return { ids: venues.map((v) => v.id), rejects: rejects.map((r) => ({ line: r.line, recordId: r.recordId, code: r.error.code, message: r.error.message })) };
    };
    const one = await summary(1);
    expect(one.rejects.map((r) => [r.line, r.code])).toEqual([
      [501, 'invalid_venue'],
      [1501, 'invalid_data'],
      [2501, 'duplicate_id'],
    ]);
    expect(one.ids).toHaveLength(lines.length - 3);
    expect(await summary(2)).toEqual(one);
  }, 60_000);

  it('rejects the same time zone and opening-hours errors at 2 threads as at 1 (the workers check what a build would refuse)', async () => {
    const rows = [...lines];
    const zone = JSON.parse(rows[700]!) as Record<string, unknown>;
    zone.timeZone = 'Europe/Atlantis';
    rows[700] = JSON.stringify(zone);
    const hours = JSON.parse(rows[1700]!) as Record<string, unknown>;
    hours.kitchenOpeningHours = [{ days: ['Mon'], timeSlots: [{ open: '09:00', close: '17:00', isClosed: false, closeNextDay: true }] }];
    rows[1700] = JSON.stringify(hours);
    const path = write('bad-rules.ndjson', rows);
    const summary = async (threads: number) => {
      const { venues, rejects } = await readVenues(path, { threads, onInvalid: 'skip' });
      return { count: venues.length, rejects: rejects.map((r) => ({ line: r.line, param: r.error.param, message: r.error.message })) };
    };
    const one = await summary(1);
    expect(one.rejects.map((r) => [r.line, r.param])).toEqual([
      [701, 'timeZone'],
      [1701, 'kitchenOpeningHours[0].timeSlots[0].close'],
    ]);
    expect(one.count).toBe(lines.length - 2);
    expect(await summary(2)).toEqual(one);
  }, 60_000);

  it("a worker's verdict names exactly the lines validateVenue rejects (malformed lines are left to the reader)", async () => {
    const rows = badRows();
    const oracle: number[] = [];
    rows.forEach((row, i) => {
      try {
        validateVenue(JSON.parse(row));
      } catch (err) {
        if (isVenueSearchError(err)) oracle.push(i + 101);
      }
    });
    expect(oracle).toEqual([601]);
    const pool = new ValidatePool(1);
    try {
      // not ready until its thread has started (the reader does the work itself meanwhile); a job sent before waits for it
      expect(pool.ready).toBe(false);
      const sent = Buffer.from(`${rows.join('\n')}\n`);
      const verdict = await pool.validate(sent, 101);
      expect([...verdict.bad]).toEqual(oracle);
      expect(pool.ready).toBe(true);
    } finally {
      await pool.close();
    }
  }, 60_000);

  it("a worker's encoded lines: every valid record as JSON.parse reads it, on its own line; the bad lines (malformed too) and their bytes", async () => {
    const rows = badRows();
    rows.splice(10, 0, '', '  ');
    const valid: Array<[number, string]> = [];
    const bad: number[] = [];
    rows.forEach((row, i) => {
      if (row.trim() === '') return;
      try {
        valid.push([i + 101, JSON.stringify(validateVenue(JSON.parse(row)))]);
      } catch {
        bad.push(i + 101);
      }
    });
    expect(bad.length).toBe(2); // an invalid record and a malformed line (the duplicate id is valid alone: the reader finds it)
    const pool = new ValidatePool(1);
    try {
      const sent = Buffer.from(`${rows.join('\n')}\n`);
      const encoded = await pool.encode(sent, 101);
      expect(encoded.bad).toEqual(bad);
      expect(Buffer.from(encoded.bytes!).equals(sent)).toBe(true);
      const venues = encodedVenues(encoded.venues);
      const got = Array.from(encoded.lines, (line, k) => [line, JSON.stringify(venues.records.get(k))]);
      expect(got).toEqual(valid);
      valid.forEach(([, json], k) => {
        const r = JSON.parse(json) as { location: { coordinates: [number, number] }; isChain?: boolean };
        expect([venues.lat[k], venues.lon[k]]).toEqual(r.location.coordinates);
        expect(venues.chain[k]).toBe(r.isChain === undefined ? CHAIN_UNKNOWN : r.isChain ? CHAIN_YES : CHAIN_NO);
      });
      // no bad line: the bytes stay with the worker
      const clean = await pool.encode(Buffer.from(`${rows.slice(0, 100).join('\n')}\n`), 1);
      expect(clean.bad).toEqual([]);
      expect(clean.bytes).toBeNull();
      expect(clean.lines.length).toBe(98);
    } finally {
      await pool.close();
    }
  }, 60_000);

  it("the caller's own onProgress error comes back as it is at any thread count (readVenues, createEngineFromFile)", async () => {
    // four copies of the fixtures (12,000 lines): onProgress is called at 10,000 records, mid-read
    const rows = [0, 1, 2, 3].flatMap((c) => lines.map((l) => l.replace('"id":"fx-', `"id":"c${c}-`)));
    const path = write('twelve-thousand.ndjson', rows);
    class Abort extends Error {}
    for (const threads of [1, 2, 3]) {
      const abort = new Abort(`stop at ${threads} threads`);
      const onProgress = (p: { records: number }) => {
        if (p.records >= 10_000) throw abort;
      };
      await expect(readVenues(path, { threads, onProgress })).rejects.toBe(abort);
      await expect(createEngineFromFile(path, { threads, onProgress })).rejects.toBe(abort);
    }
  }, 120_000);

  it("a stream's own error is reported as invalid_data with the stream's error as its cause", async () => {
    const broken = new Error('connection reset');
    async function* source() {
      yield `${lines[0]!}\n`;
      throw broken;
    }
    for (const threads of [1, 2]) {
      const err = await readVenues(source(), { threads, name: 'feed' }).then(() => null, (e: unknown) => e);
      expect(err).toMatchObject({ name: 'VenueSearchError', code: 'invalid_data', file: 'feed', message: 'cannot read feed: connection reset' });
      expect((err as Error).cause).toBe(broken);
    }
  });

  it('refuses a threads option that is not a whole number from 1 to 64', async () => {
    const path = write('one.ndjson', lines.slice(0, 1));
    for (const threads of [0, 1.5, 65, Number.NaN]) {
      expect(await errorOf(readVenues(path, { threads }))).toMatchObject({ code: 'invalid_request', param: 'options.threads' });
    }
  });
});
