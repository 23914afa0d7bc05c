/**
 * Builds the widget's browser assets (one script, one stylesheet) from src/widget with
 * esbuild. Run at `npm run build` time (`node dist/src/widget/build-assets.js <outDir>`);
 * the service reads the files from that folder. When no built folder exists (running from
 * the sources), the service calls `bundleWidget` itself if esbuild is installed.
 *
 * esbuild is a development dependency: this module imports it lazily, so the service never
 * needs it when the assets were built ahead. Its name is built at run time, out of a bundler's
 * sight: an app bundling the HTTP entry whole need not mark esbuild external (audit 68c F1).
 */
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type * as Esbuild from 'esbuild';

export interface WidgetBundle {
  readonly script: string;
  readonly stylesheet: string;
}

/** Names of the built files inside the assets folder. */
export const WIDGET_SCRIPT_FILE = 'widget.js';
export const WIDGET_STYLESHEET_FILE = 'widget.css';
/** The offline base map's file (world-atlas's Natural Earth 1:50m countries, TopoJSON). */
export const BASE_MAP_FILE = 'countries-50m.json';

/**
 * The widget's source folder for this module's folder `here`: `here` itself when run from the
 * sources, else the package's src/widget above the compiled copy (dist/src/widget, or the
 * bench's .tmp/bench-dist/src/widget): the nearest ancestor holding src/widget/widget.css, up
 * to the package's root (the first folder with a package.json), never another project's.
 */
function widgetSourcesDir(here: string): string {
  if (existsSync(join(here, WIDGET_STYLESHEET_FILE))) return here;
  for (let dir = dirname(here); dir !== dirname(dir); dir = dirname(dir)) {
    const candidate = join(dir, 'src', 'widget');
    if (existsSync(join(candidate, WIDGET_STYLESHEET_FILE))) return candidate;
    if (existsSync(join(dir, 'package.json'))) break;
  }
  return here;
}

/** esbuild's package name, not a literal: a bundler would otherwise try to fold esbuild itself into an app's bundle. */
const ESBUILD_PACKAGE = ['esbuild'].join('');

/** Bundles the page script (ES2020, minified) and stylesheet in memory; throws if esbuild is missing. */
export async function bundleWidget(): Promise<WidgetBundle> {
  const srcDir = widgetSourcesDir(fileURLToPath(new URL('.', import.meta.url)));
  const esbuild = (await import(ESBUILD_PACKAGE)) as typeof Esbuild;
  // legal comments kept at the end: Leaflet's BSD-2 licence asks for its notice in the bundle
  const common = { bundle: true, write: false, minify: true, logLevel: 'silent', legalComments: 'eof' } as const;
  const [js, css] = await Promise.all([
    esbuild.build({ ...common, entryPoints: [join(srcDir, 'page', 'widget.ts')], format: 'iife', platform: 'browser', target: ['es2020'], outfile: WIDGET_SCRIPT_FILE }),
    // Leaflet's stylesheet is imported by widget.css; its few images become data: URLs (img-src allows data:)
    esbuild.build({ ...common, entryPoints: [join(srcDir, 'widget.css')], outfile: WIDGET_STYLESHEET_FILE, loader: { '.png': 'dataurl', '.svg': 'dataurl' } }),
  ]);
  const script = js.outputFiles[0]?.text;
  const stylesheet = css.outputFiles[0]?.text;
  if (script === undefined || stylesheet === undefined) throw new Error('esbuild produced no output for the widget');
  return { script, stylesheet };
}

/** Writes the bundle into `outDir` (created if needed). */
export async function writeWidgetAssets(outDir: string): Promise<void> {
  const bundle = await bundleWidget();
  await mkdir(outDir, { recursive: true });
  await writeFile(join(outDir, WIDGET_SCRIPT_FILE), bundle.script);
  await writeFile(join(outDir, WIDGET_STYLESHEET_FILE), bundle.stylesheet);
  // the offline base map (Natural Earth via world-atlas), so the built service needs no dev dependency
  await copyFile(createRequire(import.meta.url).resolve(`world-atlas/${BASE_MAP_FILE}`), join(outDir, BASE_MAP_FILE));
}

// Run as a script only when this very file is the main module, checked by its name too: folded
// into another program's bundle, import.meta.url is that bundle, which is then process.argv[1]
// as well, and the app would build the widget at start-up (audit 68c F1). In a CommonJS bundle
// import.meta.url is undefined.
const thisFile = typeof import.meta.url === 'string' ? fileURLToPath(import.meta.url) : undefined;
if (thisFile !== undefined && /^build-assets\.[cm]?[jt]s$/.test(basename(thisFile)) && process.argv[1] !== undefined && resolve(process.argv[1]) === thisFile) {
  const outDir = process.argv[2] ?? fileURLToPath(new URL('./assets/', import.meta.url));
  // Not a top-level await: one would make this module, and the HTTP entry that imports it, an
  // async module graph, which CommonJS cannot require() (ERR_REQUIRE_ASYNC_MODULE).
  writeWidgetAssets(outDir).then(
    () => process.stderr.write(`widget assets written to ${outDir}\n`),
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
