import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * Node's own record of the files a process loads, for tests of what a command or an import
 * loads: a probe, given to the child with `--import`, registers a module resolution hook that
 * notes every module the process resolves (ES modules, and packages an ES module imports) and,
 * at exit, the files of require.cache (CommonJS, whoever required it). Files are written under
 * `dir`, which the test removes.
 */
export function loadProbe(dir: string): { run(args: readonly string[], env?: Readonly<Record<string, string>>): LoadRun } {
  const hooks = join(dir, 'load-probe-hooks.mjs');
  const probe = join(dir, 'load-probe.mjs');
  writeFileSync(
    hooks,
    `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const found = await next(specifier, context);
  appendFileSync(process.env.LOAD_PROBE_OUT, found.url + '\\n');
  return found;
}\n`,
  );
  writeFileSync(
    probe,
    `import { register, createRequire } from 'node:module';
import { appendFileSync } from 'node:fs';
register(${JSON.stringify(pathToFileURL(hooks).href)});
const require = createRequire(import.meta.url);
process.on('exit', () => appendFileSync(process.env.LOAD_PROBE_OUT, Object.keys(require.cache).join('\\n') + '\\n'));\n`,
  );
  let runs = 0;
  return {
    /** Runs `node --import <probe> ...args` (with `env` added to this process's): its output, and the files it loaded (paths; `node:` built-ins left out). */
    run(args, env = {}) {
      const out = join(dir, `loaded-${runs++}.txt`);
      writeFileSync(out, '');
      const child = spawnSync(process.execPath, ['--import', pathToFileURL(probe).href, ...args], { encoding: 'utf8', env: { ...process.env, ...env, LOAD_PROBE_OUT: out } });
      const files = new Set<string>();
      for (const line of readFileSync(out, 'utf8').split('\n')) {
        if (line.startsWith('file:')) files.add(fileURLToPath(line));
        else if (line.startsWith('/') || /^[A-Za-z]:\\/.test(line)) files.add(line);
      }
      return { status: child.status, stdout: child.stdout, stderr: child.stderr, files: [...files] };
    },
  };
}

export interface LoadRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Every file the process loaded as a module. */
  readonly files: readonly string[];
}

/** The package of a node_modules path (`@scope/name` or `name`), or undefined. */
export function packageOf(path: string): string | undefined {
  return /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)[\\/]/.exec(path)?.[1]?.replace(/\\/g, '/');
}
