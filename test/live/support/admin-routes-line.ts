/**
 * The line `venue-search serve --admin-token-file` prints on stderr once it listens:
 * "Admin routes on <base>/admin/ (PUT venues, ...)". Tests that start the service as a process
 * wait for it to learn where to send their batches.
 */
import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

/** The service's base URL (`http://host:port`) when `line` is the admin routes line; otherwise undefined. */
export function adminRoutesBase(line: string): string | undefined {
  return /Admin routes on (http:\/\/[^/]+)\/admin\//.exec(line)?.[1];
}

/**
 * Resolves with the base URL once `child` prints the admin routes line, keeping every stderr
 * line in `lines` (the child must have been spawned with stderr piped). Rejects, and kills the
 * child, when it exits first or prints no such line within 60 s.
 */
export async function adminRoutesOf(child: ChildProcess, lines: string[]): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start in 60 s: ${lines.join(' | ')}`)), 60_000);
    createInterface({ input: child.stderr! }).on('line', (line) => {
      lines.push(line);
      const base = adminRoutesBase(line);
      if (base !== undefined) {
        clearTimeout(timer);
        resolve(base);
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`serve exited (${code ?? signal}) before it listened: ${lines.join(' | ')}`));
    });
  }).catch((err: unknown) => {
    child.kill('SIGKILL');
    throw err;
  });
}
