/**
 * warm() reads the embedded gazetteer, so that a find naming a place afterwards does no I/O
 * (audit 72c F1: the first such find read 1.3 MB and took 125 to 140 ms). Oracle: every
 * `readFileSync` of a fresh process (this one's module cache may hold the gazetteer already),
 * recorded by replacing Node's own (module.syncBuiltinESMExports carries the replacement to
 * the named imports of node:fs).
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

it('warm() reads the gazetteer file; a find naming a place after it, and one naming a postcode district, read nothing', () => {
  const script = `
    import fs from 'node:fs';
    import { syncBuiltinESMExports } from 'node:module';
    import { createEngine } from ${JSON.stringify(new URL('../../src/engine.ts', import.meta.url).href)};
    import { loadFixtureVenues } from ${JSON.stringify(new URL('../search/support.ts', import.meta.url).href)};
    const engine = createEngine(loadFixtureVenues());
    const reads = [];
    const original = fs.readFileSync;
    fs.readFileSync = (...args) => { reads.push(String(args[0])); return original(...args); };
    syncBuiltinESMExports();
    // first, as the service's engine threads warm: nothing read
    engine.warm({ gazetteer: false });
    const lazyWarm = reads.splice(0);
    engine.warm();
    const duringWarm = reads.splice(0);
    const found = engine.find({ q: 'coffee', location: 'Leeds' }).establishments.length;
    engine.find({ q: 'coffee', location: 'LS1' });
    process.stdout.write(JSON.stringify({ duringWarm, found, afterWarm: reads, lazyWarm }));
  `;
  const out = JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' })) as {
    duringWarm: string[];
    found: number;
    afterWarm: string[];
    lazyWarm: string[];
  };
  expect(out.duringWarm.filter((path) => path.includes('gazetteer'))).not.toEqual([]);
  expect(out.found).toBeGreaterThan(0);
  expect(out.afterWarm).toEqual([]);
  // warm({ gazetteer: false }) (the service's engine threads), before: no file read
  expect(out.lazyWarm).toEqual([]);
});
