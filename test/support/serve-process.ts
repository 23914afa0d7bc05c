import { spawn, type ChildProcess } from 'node:child_process';

/**
 * Starts `venue-search serve ... --dev` as `command args` and waits (60 s at most) until it
 * has printed its base URL and the development secret key; `output()` is all it has printed
 * on stdout and stderr so far.
 */
export async function startServe(
  command: string,
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ child: ChildProcess; base: string; key: string; output: () => string }> {
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let printed = '';
  const info = await new Promise<{ base: string; key: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start in 60 s: ${printed}`)), 60_000);
    const onData = (chunk: Buffer) => {
      printed += String(chunk);
      const base = /on (http:\/\/\S+?)\/v1\//.exec(printed)?.[1];
      const key = /secret key\s+(sk_\S+)/.exec(printed)?.[1];
      if (base !== undefined && key !== undefined) {
        clearTimeout(timer);
        resolve({ base, key });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${printed}`)));
  });
  return { child, ...info, output: () => printed };
}
