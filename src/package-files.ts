/**
 * Files of this package that its code reads at run time, beside itself: the gazetteer files
 * (data/gazetteer) and the modules its worker threads start on (NDJSON validation, the
 * service's engine threads, the ledger, compaction). Bundled into another file (esbuild,
 * webpack, ncc), the code moves and they are no longer where it looks: the first find with a
 * place name, or the first read with 2 threads, would fail with a bare ENOENT or a "Cannot
 * find module" blamed on the data file. This is the one message for that case, naming the
 * file and the remedy (docs/packaging.md, "Bundling a service that embeds the engine").
 */
import { existsSync } from 'node:fs';

/** A file the package reads at run time (`what` it is, for the message) is not at `path`, where its code looks for it. */
export class PackageFileMissingError extends Error {
  override readonly name = 'PackageFileMissingError';
  constructor(
    what: string,
    /** The path looked at. */
    readonly path: string,
    options?: ErrorOptions,
  ) {
    super(
      `venue-search-engine cannot find its ${what} (${path}): the package reads files at run time, beside its code. ` +
        'Was it bundled into another file? Leave it out of the bundle and install it beside it ' +
        '(esbuild --packages=external or --external:venue-search-engine; webpack externals); see docs/packaging.md, "Bundling a service that embeds the engine"',
      options,
    );
  }

  /** What `JSON.stringify(err)` writes: `name`, `message` (not an own enumerable property of an Error, so JSON left it out) and `path`. */
  toJSON(): { name: 'PackageFileMissingError'; message: string; path: string } {
    return { name: this.name, message: this.message, path: this.path };
  }
}

/** Throws PackageFileMissingError unless the package's file `path` (`what` it is) exists. */
export function requirePackageFile(what: string, path: string): void {
  if (!existsSync(path)) throw new PackageFileMissingError(what, path);
}

/**
 * `moduleUrl` (the caller's `import.meta.url`), or PackageFileMissingError for the package's
 * `what` at `path` when there is none: bundled whole into CommonJS (esbuild --format=cjs),
 * import.meta is {} and nothing beside the code can be located (audit 68c F2).
 */
export function moduleUrlOrMissing(moduleUrl: string | undefined, what: string, path: string): string {
  if (typeof moduleUrl !== 'string') throw new PackageFileMissingError(what, `${path}: this code has no import.meta.url, as in a CommonJS bundle`);
  return moduleUrl;
}
