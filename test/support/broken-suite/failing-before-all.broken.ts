// A deliberately broken suite for test/support/summary-reporter.test.ts: its beforeAll
// throws, so vitest skips both tests; the summary must still count a failure.
import { beforeAll, expect, it } from 'vitest';

beforeAll(() => {
  throw new Error('deliberate beforeAll failure');
});
it('never runs (1)', () => expect(1).toBe(1));
it('never runs (2)', () => expect(2).toBe(2));
