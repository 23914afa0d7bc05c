// Deliberately broken: the test passes, then afterAll throws.
import { afterAll, expect, it } from 'vitest';

afterAll(() => {
  throw new Error('deliberate afterAll failure');
});
it('passes', () => expect(1).toBe(1));
