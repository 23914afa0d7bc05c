/**
 * What code under test writes on this process's stderr (the live directory's lines: leftovers
 * removed, a lock taken over), captured while `run` runs; stderr is restored after it, thrown
 * or not. Each chunk written is one entry of `said`.
 */
export function stderrOfSync<T>(run: () => T): { value: T; said: string[] } {
  const said: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string | Uint8Array) => said.push(String(chunk)) > 0) as typeof process.stderr.write;
  try {
    return { value: run(), said };
  } finally {
    process.stderr.write = write;
  }
}

/** {@link stderrOfSync} for an async `run`: captured until its promise settles. */
export async function stderrOf<T>(run: () => Promise<T>): Promise<{ value: T; said: string[] }> {
  const said: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string | Uint8Array) => said.push(String(chunk)) > 0) as typeof process.stderr.write;
  try {
    return { value: await run(), said };
  } finally {
    process.stderr.write = write;
  }
}
