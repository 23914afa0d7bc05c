/**
 * The importers' heaviest packages (opening_hours, turf), loaded the first time a conversion
 * needs them rather than when the package is imported: the engine's entry re-exports the
 * importers, and an embedding service that only searches paid about 150 ms of its import for
 * code it never runs (docs/packaging.md, "What an import of the package loads"). The
 * conversions that use them are synchronous, so they are read with require() (each ships a
 * CommonJS build); the asynchronous importers load theirs with import() (hyparquet, csv-parse).
 * The command line's progress bar loads cli-progress the same way, for a terminal only.
 */
import { createRequire } from 'node:module';
import { moduleUrlOrMissing } from '../package-files.js';

let requireHere: NodeJS.Require | null = null;
/** The packages read so far, by name (a require() resolves the name's path again on each call). */
const loaded = new Map<string, unknown>();

/** `require(name)` from this module, the first time; the same exports after. */
export function requirePackage<T>(name: string): T {
  let exports = loaded.get(name);
  if (exports === undefined) {
    // Bundled whole into CommonJS there is no import.meta.url: say so, naming the package.
    requireHere ??= createRequire(moduleUrlOrMissing(import.meta.url, `dependency ${name}`, name));
    loaded.set(name, (exports = requireHere(name)));
  }
  return exports as T;
}
