/**
 * The widget's static assets as the service serves them: read once at start from the built
 * folder (dist/src/widget/assets by default), or bundled in memory from the sources when no
 * built folder exists and esbuild is installed. Each file is addressed by a content hash so
 * it can be cached for a year and replaced by a new build at once.
 */
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BASE_MAP_FILE, WIDGET_SCRIPT_FILE, WIDGET_STYLESHEET_FILE, bundleWidget, type WidgetBundle } from './build-assets.js';
import { readBaseMap } from './map-data.js';

export interface WidgetAsset {
  /** File name with the content hash, e.g. `widget.3f2a9c1b0d.js`. */
  readonly name: string;
  readonly contentType: string;
  readonly body: Buffer;
  /** The body gzipped, made on first use (sent when the browser accepts gzip). */
  gzipped(): Buffer;
}

export interface WidgetAssets {
  readonly script: WidgetAsset;
  readonly stylesheet: WidgetAsset;
  /** The offline base map (coastlines and borders, TopoJSON); undefined when world-atlas is not installed. */
  readonly baseMap: WidgetAsset | undefined;
}

export function widgetAsset(file: string, contentType: string, text: string): WidgetAsset {
  const body = Buffer.from(text, 'utf8');
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 10);
  const dot = file.lastIndexOf('.');
  let zipped: Buffer | undefined;
  return { name: `${file.slice(0, dot)}.${hash}${file.slice(dot)}`, contentType, body, gzipped: () => (zipped ??= gzipSync(body)) };
}

/** One in-memory bundle per process: every app built from the sources shares it. */
let bundleOnce: Promise<WidgetBundle> | undefined;

/** The default built folder: dist/src/widget/assets beside this module. */
export function defaultWidgetAssetsDir(): string {
  return fileURLToPath(new URL('./assets/', import.meta.url));
}

/**
 * Loads the assets from `dir` when both files are there; otherwise bundles them with esbuild.
 * Returns an explanation instead when neither works (the page then says the widget is not built).
 */
export async function loadWidgetAssets(dir: string = defaultWidgetAssetsDir()): Promise<WidgetAssets | { unavailable: string }> {
  let bundle: WidgetBundle;
  const scriptPath = join(dir, WIDGET_SCRIPT_FILE);
  const stylesheetPath = join(dir, WIDGET_STYLESHEET_FILE);
  if (existsSync(scriptPath) && existsSync(stylesheetPath)) {
    bundle = { script: await readFile(scriptPath, 'utf8'), stylesheet: await readFile(stylesheetPath, 'utf8') };
  } else {
    try {
      bundleOnce ??= bundleWidget();
      bundle = await bundleOnce;
    } catch (err) {
      return { unavailable: `the widget's assets are not built (${dir} is missing and bundling failed: ${(err as Error).message.split('\n', 1)[0]}); run npm run build` };
    }
  }
  const baseMap = await readBaseMap(dir);
  return {
    script: widgetAsset(WIDGET_SCRIPT_FILE, 'text/javascript; charset=utf-8', bundle.script),
    stylesheet: widgetAsset(WIDGET_STYLESHEET_FILE, 'text/css; charset=utf-8', bundle.stylesheet),
    baseMap: baseMap === undefined ? undefined : widgetAsset(BASE_MAP_FILE, 'application/json; charset=utf-8', baseMap),
  };
}
