/**
 * Transparent huge pages for the engine's ArrayBuffers (Linux with glibc 2.35 or later):
 * `GLIBC_TUNABLES=glibc.malloc.hugetlb=1` in a process's environment makes glibc's malloc ask
 * the kernel for 2 MB pages (madvise MADV_HUGEPAGE) for the memory it maps, which is where
 * Node allocates ArrayBuffers: the engine's columns, kd-tree and compact records. A build
 * then faults in about one page per 2 MB instead of one per 4 KB. It must be set before the
 * process starts (glibc reads it at load), so the bench measures it in child processes,
 * beside the same child without it. docs/deploy.md tells operators how to set it.
 */

/** Figures of the cold start (bench/workloads/cold-start.ts), which the goals table names beside createEngine. */
export const CHILD_BUILD = 'child: build engine (ms)';
export const CHILD_HUGE_BUILD = 'child, huge pages: build engine (ms)';

/** The environment that turns it on. */
export const HUGE_PAGES_ENV: Readonly<Record<string, string>> = { GLIBC_TUNABLES: 'glibc.malloc.hugetlb=1' };
/** The same as a shell would write it, for labels: `GLIBC_TUNABLES=glibc.malloc.hugetlb=1`. */
export const HUGE_PAGES_SETTING = Object.entries(HUGE_PAGES_ENV)
  .map(([name, value]) => `${name}=${value}`)
  .join(' ');

/** The glibc version this process runs on ("2.36"), or null (not Linux, or another C library). */
function glibcVersion(): string | null {
  const header = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header;
  return header?.glibcVersionRuntime ?? null;
}

/** Whether the tunable takes effect here: glibc 2.35 or later (older versions ignore it). */
export function hugePagesApply(): boolean {
  const v = glibcVersion();
  if (v === null) return false;
  const [major, minor] = v.split('.').map(Number);
  return major! > 2 || (major === 2 && minor! >= 35);
}
