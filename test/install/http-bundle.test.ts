/**
 * An app that imports the HTTP entry, bundled whole with esbuild (audit 68c F1, F2). The app
 * is bundled from this checkout's sources (src/index.ts, src/http/index.ts: the same modules the
 * package compiles), into a folder of its own, and run with node:
 * - as an ES module, beside a node_modules that holds fastify and esbuild (a user's project):
 *   the app runs and exits 0 with nothing on stderr. Before, the widget's build script ran at
 *   start-up (its "run as a script" check was true inside the bundle) and the app exited 1.
 *   esbuild need not be marked external: the bundle is built with no warning naming it.
 * - deployed alone (no node_modules), as an ES module and as CommonJS: importing the entry
 *   works, a search answers, and buildApp throws the documented PackageFileMissingError. Before,
 *   the CommonJS bundle died at load with a bare TypeError from createRequire(import.meta.url),
 *   and the ES module bundle with "Cannot find module 'fastify'".
 */
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO, run } from './install-support.js';

const root = mkdtempSync(join(tmpdir(), 'vse-http-bundle-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// One venue named "The Crown": a find for "crown" finds exactly it. No top-level await, so the
// same app bundles to CommonJS.
const APP = `import { createEngine } from ${JSON.stringify(join(REPO, 'src/index.ts'))};
import { buildApp } from ${JSON.stringify(join(REPO, 'src/http/index.ts'))};
(async () => {
  const engine = createEngine([{ id: 'v1', name: 'The Crown', location: { type: 'Point', coordinates: [-0.1365, 51.5136] } }]);
  console.log(JSON.stringify({ step: 'find', answer: engine.find({ q: 'crown' }).establishments.map((e) => e.id) }));
  if (process.argv[2] !== 'build') return;
  try { await buildApp({ engine, accounts: {} }); console.log(JSON.stringify({ step: 'buildApp' })); }
  catch (err) { console.log(JSON.stringify({ step: 'buildApp', error: err.name, message: err.message })); }
})();
`;
const entry = join(root, 'app.mjs');
writeFileSync(entry, APP);

// The createRequire shim any ES module bundle of fastify needs (fastify-plugin require()s node:path).
const ESM_BANNER = "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);";

type Step = { step: string; answer?: unknown; error?: string; message?: string };
const steps = (stdout: string): Step[] => stdout.trim().split('\n').map((line) => JSON.parse(line) as Step);

async function bundle(format: 'esm' | 'cjs', outfile: string): Promise<string[]> {
  const { buildSync } = await import('esbuild');
  const result = buildSync({ entryPoints: [entry], bundle: true, platform: 'node', format, outfile, logLevel: 'silent', ...(format === 'esm' ? { banner: { js: ESM_BANNER } } : {}) });
  return result.warnings.map((w) => w.text);
}

describe('an app bundling the HTTP entry whole (esbuild)', () => {
  it('as an ES module in a project with fastify and esbuild installed: runs, no widget build at start-up, esbuild not bundled', async () => {
    const project = join(root, 'project');
    const warnings = await bundle('esm', join(project, 'dist/app.mjs'));
    expect(warnings.filter((text) => text.includes('esbuild'))).toEqual([]);
    symlinkSync(join(REPO, 'node_modules'), join(project, 'node_modules'), 'dir');
    const result = run(process.execPath, ['dist/app.mjs'], project, { allowFailure: true, timeoutMs: 30_000 });
    expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
    expect(steps(result.stdout)).toEqual([{ step: 'find', answer: ['v1'] }]);
  }, 30_000);

  it('deployed alone, as an ES module and as CommonJS: loads, searches, and buildApp names the file it misses and the remedy', async () => {
    const deployed = join(root, 'deployed');
    await bundle('esm', join(deployed, 'app.mjs'));
    await bundle('cjs', join(deployed, 'app.cjs'));
    const compiler = "cannot find its fastify's serializer compiler (@fastify/fast-json-stringify-compiler: ";
    for (const [file, missed] of [
      ['app.mjs', 'fastify cannot be located from this code'],
      ['app.cjs', 'this code has no import.meta.url, as in a CommonJS bundle'],
    ] as const) {
      const result = run(process.execPath, [file, 'build'], deployed, { allowFailure: true, timeoutMs: 30_000 });
      expect({ file, status: result.status, stderr: result.stderr }).toEqual({ file, status: 0, stderr: '' });
      const [find, built] = steps(result.stdout);
      expect(find).toEqual({ step: 'find', answer: ['v1'] });
      expect(built!.error).toBe('PackageFileMissingError');
      expect(built!.message).toContain(`${compiler}${missed}): `);
      expect(built!.message).toContain('docs/packaging.md, "Bundling a service that embeds the engine"');
    }
  }, 30_000);
});
