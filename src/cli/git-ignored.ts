/**
 * Whether a file the service writes would be committed by a `git add .`: it lies in a git
 * work tree that does not ignore it. Asked of git itself (`git check-ignore`), so every
 * .gitignore, .git/info/exclude and global excludes file counts. Only a hint: false when git
 * is not on PATH, the folder is no work tree, or git fails or takes over 5 s; never an error.
 */
import { spawnSync } from 'node:child_process';
import { basename, dirname, resolve } from 'node:path';

export function unignoredInGitWorkTree(file: string): boolean {
  const path = resolve(file);
  try {
    // exit 0: ignored; 1: not ignored (inside a work tree); 128: no work tree, or another failure
    const r = spawnSync('git', ['check-ignore', '-q', '--', basename(path)], { cwd: dirname(path), stdio: 'ignore', timeout: 5000 });
    return r.error === undefined && r.status === 1;
  } catch {
    return false;
  }
}
