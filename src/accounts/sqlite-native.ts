/**
 * better-sqlite3 is a native module: its install script compiles (or downloads) a binary for
 * the Node.js that installs it. When that binary is missing or does not load, opening a
 * database fails with a message about "bindings" files that names neither the cause nor the
 * fix. The usual causes:
 * - the install script did not run: npm 12 runs a dependency's install script only when the
 *   project allows it (`allowScripts` in package.json, written by `npm approve-scripts`), and
 *   `--ignore-scripts` or `ignore-scripts=true` skip it in any npm;
 * - the binary was built for another Node.js (node_modules kept across a Node upgrade) or
 *   another platform (node_modules copied into a container).
 * This module recognises those two failures and says what to run.
 */

/** The package whose binary this is about; the commands below name it. */
const PACKAGE = 'better-sqlite3';

/** The binary could not be opened: `unbuilt` (no binary where `bindings` looks) or `unloadable` (a binary, refused by this Node.js). */
export type SqliteNativeFailure = 'unbuilt' | 'unloadable';

/** better-sqlite3's binary is missing or does not load in this Node.js; the message says what to run. */
export class SqliteNativeModuleError extends Error {
  override readonly name = 'SqliteNativeModuleError';
  constructor(
    readonly failure: SqliteNativeFailure,
    cause: Error,
  ) {
    super(
      failure === 'unbuilt'
        ? `${PACKAGE} is installed but its native module was never built: its install script did not run ` +
            `(npm 12 runs a dependency's install script only when the project allows it; --ignore-scripts and ignore-scripts=true skip it too). ` +
            `Allow it and build it, in the project that installed it:\n  npm approve-scripts ${PACKAGE} && npm rebuild ${PACKAGE}`
        : `${PACKAGE}'s native module does not load in this Node.js (${process.version}, ${process.platform}-${process.arch}): ` +
            `${firstLine(cause.message)}. Rebuild it for this Node.js, in the project that installed it:\n  npm rebuild ${PACKAGE}`,
      { cause },
    );
  }
}

/** `err` as a SqliteNativeModuleError when it is a failure to open better-sqlite3's binary, else undefined. */
export function sqliteNativeModuleError(err: unknown): SqliteNativeModuleError | undefined {
  if (!(err instanceof Error)) return undefined;
  // The `bindings` package's message when no candidate path holds the binary.
  if (err.message.startsWith('Could not locate the bindings file')) return new SqliteNativeModuleError('unbuilt', err);
  // Node's code for a binary that exists but cannot be loaded (another NODE_MODULE_VERSION, platform or libc).
  if ((err as NodeJS.ErrnoException).code === 'ERR_DLOPEN_FAILED') return new SqliteNativeModuleError('unloadable', err);
  return undefined;
}

function firstLine(text: string): string {
  const end = text.indexOf('\n');
  return (end < 0 ? text : text.slice(0, end)).replace(/\.$/, '');
}
