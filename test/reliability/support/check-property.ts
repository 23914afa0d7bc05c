/**
 * Runs a fast-check property with `fc.check` and, on failure, throws an error carrying the
 * seed, the replay path and a SHORT rendering of the counterexample (hostile inputs include
 * 10,000-character strings that would otherwise flood the test output).
 */
import fc from 'fast-check';

function shorten(value: unknown): string {
  const text = fc.stringify(value);
  return text.length > 600 ? `${text.slice(0, 600)}... (${text.length} characters)` : text;
}

export async function checkProperty<Ts>(property: fc.IAsyncProperty<Ts> | fc.IProperty<Ts>, params: fc.Parameters<Ts>): Promise<void> {
  const details = await fc.check(property, params);
  if (!details.failed) return;
  const cause = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  throw new Error(
    `property failed after ${details.numRuns} runs (seed ${details.seed}, path "${details.counterexamplePath ?? ''}")\n` +
      `counterexample: ${shorten(details.counterexample)}\ncause: ${cause.slice(0, 1500)}`,
  );
}
