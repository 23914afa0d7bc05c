// The figures in README.md and docs/performance.md cannot drift from the recorded run: both
// must be exactly what bench/write-docs.ts renders from bench/results/latest-full.json.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { applyGenerated, performanceDocBlocks, readmeBlocks, type BenchRun } from '../../bench/lib/docs.js';

const root = new URL('../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');
const run = JSON.parse(read('bench/results/latest-full.json')) as BenchRun;

describe('performance figures in the documents', () => {
  it('README.md holds the summary rendered from bench/results/latest-full.json', () => {
    const doc = read('README.md');
    expect(applyGenerated(doc, readmeBlocks(run))).toBe(doc);
  });
  it('docs/performance.md holds the goals and workloads rendered from bench/results/latest-full.json', () => {
    const doc = read('docs/performance.md');
    expect(applyGenerated(doc, performanceDocBlocks(run))).toBe(doc);
  });
  it('a changed figure in the JSON changes the rendered documents (the check can fail)', () => {
    const doc = read('docs/performance.md');
    const changed = structuredClone(run) as { results: Array<{ timings: Array<{ medianUs: number }> }> };
    const t = changed.results.find((r) => r.timings.length > 0)!.timings[0]!;
    t.medianUs = t.medianUs * 3 + 1;
    expect(applyGenerated(doc, performanceDocBlocks(changed as unknown as BenchRun))).not.toBe(doc);
  });
});
