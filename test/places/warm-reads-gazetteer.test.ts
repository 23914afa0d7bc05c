/**
 * warm() reads the embedded gazetteer, so that a find naming a place afterwards does no I/O
 * (audit 72c F1: the first such find read 1.3 MB and took 125 to 140 ms). Oracle: every
 * `readFileSync` of the process, recorded by replacing Node's own (module.syncBuiltinESMExports
 * carries the replacement to the named imports of node:fs).
 */
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { afterEach, expect, it } from 'vitest';
import { createEngine } from '../../src/engine.js';
import { loadFixtureVenues } from '../search/support.js';

const original = fs.readFileSync;
afterEach(() => {
  fs.readFileSync = original;
  syncBuiltinESMExports();
});

/** Records the path of every readFileSync from now on. */
function recordReads(): string[] {
  const reads: string[] = [];
  fs.readFileSync = ((...args: Parameters<typeof fs.readFileSync>) => {
    reads.push(String(args[0]));
    return original(...args);
  }) as typeof fs.readFileSync;
  syncBuiltinESMExports();
  return reads;
}

it('warm() reads the gazetteer file; a find naming a place after it, and one naming a postcode district, read nothing', () => {
  const engine = createEngine(loadFixtureVenues());
  const reads = recordReads();
  engine.warm();
  expect(reads.filter((path) => path.includes('gazetteer'))).not.toEqual([]);
  reads.length = 0;
  expect(engine.find({ q: 'coffee', location: 'Leeds' }).establishments.length).toBeGreaterThan(0);
  engine.find({ q: 'coffee', location: 'LS1' });
  expect(reads).toEqual([]);
});
