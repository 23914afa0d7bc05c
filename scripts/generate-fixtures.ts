/**
 * `npm run fixtures [-- --count N --seed S --out PATH]`: writes generated venues as NDJSON.
 * The committed fixtures/venues.ndjson is `--count 3000 --seed 1`; large sets (1M) are made
 * on demand into .tmp/ (ignored by git).
 */
import { createWriteStream } from 'node:fs';
import { parseArgs } from 'node:util';
import { generateVenues } from './fixtures/generate-venues.js';

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '3000' },
    seed: { type: 'string', default: '1' },
    out: { type: 'string', default: 'fixtures/venues.ndjson' },
  },
});
const count = Number(values.count);
const seed = Number(values.seed);
if (!Number.isInteger(count) || count < 0) throw new Error(`--count must be a whole number; got ${values.count}`);
if (!Number.isInteger(seed)) throw new Error(`--seed must be an integer; got ${values.seed}`);

const out = createWriteStream(values.out);
const venues = generateVenues(count, seed);
for (const v of venues) out.write(`${JSON.stringify(v)}\n`);
out.end(() => process.stderr.write(`wrote ${count} venues (seed ${seed}) to ${values.out}\n`));
