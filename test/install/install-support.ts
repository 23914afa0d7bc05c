/**
 * Helpers for the install tests: run commands as a user would, in folders outside the
 * checkout, and fail with everything the command printed.
 */
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The environment of a user's shell: without the npm_* variables that `npm test` sets for
 * its own scripts (they would make a nested npm act on this checkout's configuration).
 */
export function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.toLowerCase().startsWith('npm_') && key !== 'INIT_CWD' && key !== 'NODE_OPTIONS') env[key] = value;
  }
  return { ...env, FORCE_COLOR: '0', NO_COLOR: '1', ...extra };
}

export interface RunResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly status: number | null;
}

/** Runs a command to completion; throws with its output when it exits non-zero (unless `allowFailure`). */
export function run(command: string, args: readonly string[], cwd: string, options: { allowFailure?: boolean; timeoutMs?: number; env?: NodeJS.ProcessEnv } = {}): RunResult {
  const spawnOptions: SpawnSyncOptions = { cwd, env: options.env ?? userEnv(), encoding: 'utf8', timeout: options.timeoutMs ?? 240_000, maxBuffer: 64 << 20 };
  const result = spawnSync(command, args, spawnOptions);
  const out: RunResult = { stdout: String(result.stdout ?? ''), stderr: String(result.stderr ?? ''), status: result.status };
  if (result.error) throw new Error(`${command} ${args.join(' ')} in ${cwd}: ${result.error.message}`);
  if (out.status !== 0 && options.allowFailure !== true) {
    throw new Error(`${command} ${args.join(' ')} in ${cwd} exited ${out.status}\n--- stdout\n${out.stdout}\n--- stderr\n${out.stderr}`);
  }
  return out;
}

/** `npm install` as a user runs it, preferring the local cache (CI reaches the registry too). */
export function npmInstall(cwd: string, specs: readonly string[], options: { ignoreScripts?: boolean } = {}): RunResult {
  const flags = ['--no-audit', '--no-fund', '--prefer-offline', ...(options.ignoreScripts === true ? ['--ignore-scripts'] : [])];
  return run('npm', ['install', ...flags, ...specs], cwd);
}

/** Every file below `dir` whose name matches `test` (node_modules included, links not followed). */
export function findFiles(dir: string, test: (name: string) => boolean, found: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) findFiles(path, test, found);
    else if (entry.isFile() && test(entry.name)) found.push(path);
  }
  return found;
}

/** The body of every fenced block of `language` in a Markdown text, in order. */
export function fencedBlocks(markdown: string, language: string): string[] {
  const blocks: string[] = [];
  const fence = new RegExp('^```' + language + '\\n([\\s\\S]*?)^```$', 'gm');
  for (const m of markdown.matchAll(fence)) blocks.push(m[1]!);
  return blocks;
}

