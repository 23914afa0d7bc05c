/**
 * What an import read, wrote and skipped, and why. Counts add up:
 * `written === read - skippedTotal + derived` (`derived`: records made from several input
 * rows, such as an OSM site relation built from its member ways).
 */

/** How many skip examples are kept per reason. */
export const EXAMPLES_PER_REASON = 5;

export interface SkipGroup {
  count: number;
  /** The first few skipped rows: their source id (`node/123`, `fhrs:456`) and a detail. */
  examples: string[];
}

export interface ImportReportJson {
  source: string;
  read: number;
  written: number;
  derived: number;
  skipped: number;
  skipReasons: Record<string, SkipGroup>;
  /** Other counts worth knowing (opening-hours outcomes, tags not recorded, ...). */
  counters: Record<string, number>;
}

export class ImportReport {
  read = 0;
  written = 0;
  derived = 0;
  readonly skipReasons = new Map<string, SkipGroup>();
  readonly counters = new Map<string, number>();

  constructor(readonly source: string) {}

  get skipped(): number {
    let n = 0;
    for (const g of this.skipReasons.values()) n += g.count;
    return n;
  }

  skip(reason: string, ref: string, detail?: string): void {
    let group = this.skipReasons.get(reason);
    if (!group) {
      group = { count: 0, examples: [] };
      this.skipReasons.set(reason, group);
    }
    group.count++;
    if (group.examples.length < EXAMPLES_PER_REASON) group.examples.push(detail ? `${ref} (${detail})` : ref);
  }

  count(counter: string, n = 1): void {
    this.counters.set(counter, (this.counters.get(counter) ?? 0) + n);
  }

  /** True when the counts add up (see the module comment). */
  balanced(): boolean {
    return this.written === this.read - this.skipped + this.derived;
  }

  toJSON(): ImportReportJson {
    const sortByCount = <T extends { count: number } | number>(m: Map<string, T>): Array<[string, T]> =>
      [...m].sort((a, b) => {
        const ca = typeof a[1] === 'number' ? a[1] : a[1].count;
        const cb = typeof b[1] === 'number' ? b[1] : b[1].count;
        return cb - ca || (a[0] < b[0] ? -1 : 1);
      });
    return {
      source: this.source,
      read: this.read,
      written: this.written,
      derived: this.derived,
      skipped: this.skipped,
      skipReasons: Object.fromEntries(sortByCount(this.skipReasons)),
      counters: Object.fromEntries(sortByCount(this.counters)),
    };
  }

  /** Plain-text report for a terminal. */
  format(): string {
    const j = this.toJSON();
    const lines = [
      `import ${j.source}: read ${j.read}, written ${j.written}, skipped ${j.skipped}` +
        (j.derived > 0 ? `, derived ${j.derived}` : ''),
    ];
    for (const [reason, g] of Object.entries(j.skipReasons)) {
      lines.push(`  skipped ${g.count} ${reason}: ${g.examples.join('; ')}${g.count > g.examples.length ? '; ...' : ''}`);
    }
    for (const [name, n] of Object.entries(j.counters)) lines.push(`  ${name}: ${n}`);
    return lines.join('\n');
  }
}
