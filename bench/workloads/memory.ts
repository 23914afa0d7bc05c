/**
 * Memory (issues 2 and 7): bytes per venue of the engine in a fresh child process
 * (--expose-gc; heap used + array buffers after gc(), before and after building), and the
 * engine's own count of its search-path columns and spatial index (engine.searchPathBytes).
 * The venue records themselves (the caller's objects) are reported separately: they are the
 * input, not the engine, which keeps its own compact copy (src/store/compact-records.ts);
 * the whole engine is measured again once the caller has let them go (issue 19: <= 350).
 */
import { spawn } from 'node:child_process';
import { sizeLabel } from '../lib/dataset.js';
import { childScript } from '../lib/paths.js';
import type { WorkloadResult } from '../lib/report.js';

const CHILD = childScript('memory-child');

interface MemoryAnswer {
  n: number;
  recordsBytes: number;
  engineBuiltBytes: number;
  engineWarmBytes: number;
  wholeEngineBytes: number;
  searchPathBytes: number;
}

export function memoryWorkload(n: number): Promise<WorkloadResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', '--max-old-space-size=12288', ...CHILD, String(n)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (c: string) => (out += c));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`memory child exited with ${code}`));
      const a = JSON.parse(out.trim()) as MemoryAnswer;
      resolve({
        workload: 'memory, fresh process',
        params: { venues: sizeLabel(n), measure: 'heapUsed + arrayBuffers after gc()' },
        timings: [],
        figures: {
          'engine built: bytes per venue (store + spatial index)': a.engineBuiltBytes / n,
          'engine warmed: bytes per venue (+ search and find structures)': a.engineWarmBytes / n,
          'search-path store + index bytes per venue (engine.searchPathBytes)': a.searchPathBytes / n,
          'the venue records themselves: bytes per venue (input, not counted above)': a.recordsBytes / n,
          'whole engine, warmed, caller\'s records released: bytes per venue (goal <= 350)': a.wholeEngineBytes / n,
        },
      });
    });
  });
}
