/**
 * Issue 14: the CI line never says `0 failed` when vitest failed. Runs vitest with the
 * project's summary reporter over deliberately broken suites (test/support/broken-suite)
 * and reads the closing line; each broken module is also run alone.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SUITE = fileURLToPath(new URL('./broken-suite/', import.meta.url));
const VITEST = fileURLToPath(new URL('../../node_modules/vitest/vitest.mjs', import.meta.url));

function summaryOf(...files: string[]): { line: string; before: string; status: number | null } {
  const run = spawnSync(process.execPath, [VITEST, 'run', '--config', 'vitest.config.ts', ...files], {
    cwd: SUITE,
    encoding: 'utf8',
    env: { ...process.env, CI: 'true', FORCE_COLOR: '0' },
    timeout: 90_000,
  });
  const lines = run.stdout.trim().split('\n');
  return { line: lines[lines.length - 1] ?? '', before: lines[lines.length - 2] ?? '', status: run.status };
}

describe('summary reporter on deliberately broken suites', () => {
  it('a failing beforeAll (its tests skipped) counts as a failure', () => {
    const { line, before, status } = summaryOf('failing-before-all');
    expect(status).not.toBe(0);
    // the last line stays plain: the skipped tests are counted on the line before it
    expect(line).toMatch(/^0 passed, [1-9]\d* failed$/);
    expect(before).toBe('2 skipped');
  });

  it('a failing afterAll counts as a failure beside its passed test', () => {
    const { line, status } = summaryOf('failing-after-all');
    expect(status).not.toBe(0);
    expect(line).toMatch(/^1 passed, [1-9]\d* failed$/);
  });

  it('a module that throws while collected counts as a failure', () => {
    const { line, status } = summaryOf('failing-import');
    expect(status).not.toBe(0);
    expect(line).toMatch(/^0 passed, [1-9]\d* failed$/);
  });

  it('an unhandled rejection counts as a failure', () => {
    const { line, status } = summaryOf('unhandled');
    expect(status).not.toBe(0);
    expect(line).toMatch(/^1 passed, [1-9]\d* failed$/);
  });

  it('all together: every broken module is counted, the healthy one passes', () => {
    const { line, status } = summaryOf();
    expect(status).not.toBe(0);
    const m = /^(\d+) passed, (\d+) failed/.exec(line);
    expect(m).not.toBeNull();
    expect(Number(m![1])).toBe(3); // afterAll's test, unhandled's test, the control
    expect(Number(m![2])).toBeGreaterThanOrEqual(4);
  });

  it('the healthy module alone says 0 failed', () => {
    const { line, status } = summaryOf('passing');
    expect(status).toBe(0);
    expect(line).toBe('1 passed, 0 failed');
  });
});
