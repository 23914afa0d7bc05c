/** The message `run` is refused with (its promise rejects); a test failure when it is not refused. */
export async function refusal(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('not refused');
}
