// Deliberately broken: the test passes, but leaves an unhandled rejection behind.
import { expect, it } from 'vitest';

it('passes but leaks a rejection', async () => {
  void Promise.reject(new Error('deliberate unhandled rejection'));
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(1).toBe(1);
});
