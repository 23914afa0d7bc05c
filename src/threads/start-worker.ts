/**
 * Starts a worker thread on a module of this package, whether it runs from the compiled
 * JavaScript (dist) or from the TypeScript sources (tests, `tsx`: the worker then registers
 * tsx's loader first). Every worker thread of the package starts here (ledger, compaction,
 * engine threads, NDJSON validation).
 */
import { fileURLToPath } from 'node:url';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import { PackageFileMissingError, requirePackageFile } from '../package-files.js';

const BOOTSTRAP = `
const { workerData } = require('node:worker_threads');
(async () => {
  if (workerData.tsxApi) (await import(workerData.tsxApi)).register();
  await import(workerData.entry);
})().catch((err) => { setImmediate(() => { throw err; }); });
`;

/**
 * `moduleUrl`: the worker module's URL as `new URL('./x.js', import.meta.url)` gives it from a
 * sibling. `resourceLimits`: the thread's heap limits (Node's defaults when absent).
 */
export function startWorker(moduleUrl: URL, workerData: Record<string, unknown>, resourceLimits?: ResourceLimits): Worker {
  // The worker would fail to import a missing module only once started, blamed on whatever it was doing.
  requirePackageFile('worker thread module', fileURLToPath(moduleUrl));
  const fromSources = moduleUrl.href.endsWith('.ts');
  const data = {
    ...workerData,
    entry: moduleUrl.href,
    ...(fromSources ? { tsxApi: tsxEsmApiUrl() } : {}),
  };
  return new Worker(BOOTSTRAP, { eval: true, workerData: data, ...(resourceLimits === undefined ? {} : { resourceLimits }) });
}

/**
 * The URL of sibling module `name` (without extension) of `from` (an import.meta.url), .ts or .js alike.
 * Throws PackageFileMissingError when there is no import.meta.url: bundled into CommonJS
 * (esbuild --format=cjs), import.meta is `{}` and `from` is undefined at run time.
 */
export function siblingModule(from: string | undefined, name: string): URL {
  if (typeof from !== 'string') throw new PackageFileMissingError('worker thread module', `${name}.js: this code has no import.meta.url, as in a CommonJS bundle`);
  return new URL(`./${name}${from.endsWith('.ts') ? '.ts' : '.js'}`, from);
}

/**
 * tsx's loader API (its ES module entry), to run worker modules from the TypeScript sources:
 * a development dependency, never installed for a user. The specifier is built at run time,
 * and resolved by import.meta.resolve, so that a bundler does not look for it: webpack
 * resolved the literal `createRequire(...).resolve('tsx/esm/api')` and stopped a whole bundle
 * with "Can't resolve 'tsx/esm/api'" (audit 66b F2). Called only for a `.ts` worker module.
 */
const TSX_ESM_API = ['tsx', 'esm', 'api'].join('/');

function tsxEsmApiUrl(): string {
  return import.meta.resolve(TSX_ESM_API);
}
