import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface SpawnLimits {
  /**
   * The largest file the process may write, bytes (a multiple of 512): a write that crosses it
   * is short and the next one fails with EFBIG, as on a disk that fills up.
   */
  readonly fileSizeBytes?: number;
}

/**
 * Spawns a TypeScript test server script under tsx (`args` after the script) whose first
 * stdout line is `{"port": N}`; resolves once that line arrives, rejects if the child exits
 * first or stays silent for 30 s. The caller owns the child (kill it in afterEach/afterAll).
 */
export async function spawnPortServer(script: string, args: readonly string[], limits: SpawnLimits = {}): Promise<{ child: ChildProcess; port: number }> {
  const command = [process.execPath, '--import', 'tsx', script, ...args];
  // `ulimit -f` counts blocks of 512 bytes; the shell execs node, so the child is node itself
  const child =
    limits.fileSizeBytes === undefined
      ? spawn(command[0]!, command.slice(1), { stdio: ['ignore', 'pipe', 'inherit'] })
      : spawn('sh', ['-c', `ulimit -f ${Math.floor(limits.fileSizeBytes / 512)} && exec "$@"`, 'sh', ...command], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! });
  const port = new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} did not start in 30 s`)), 30_000);
    lines.once('line', (line) => {
      clearTimeout(timer);
      resolve((JSON.parse(line) as { port: number }).port);
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return { child, port: await port.catch((e: unknown) => { child.kill('SIGKILL'); throw e; }) };
}
