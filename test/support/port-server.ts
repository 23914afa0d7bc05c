import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

/**
 * Spawns a TypeScript test server script under tsx (`args` after the script) whose first
 * stdout line is `{"port": N}`; resolves once that line arrives, rejects if the child exits
 * first or stays silent for 30 s. The caller owns the child (kill it in afterEach/afterAll).
 */
export async function spawnPortServer(script: string, args: readonly string[]): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
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
