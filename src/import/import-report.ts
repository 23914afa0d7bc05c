/**
 * What an import read, wrote and skipped, and why. Counts add up:
 * `written === read - skippedTotal + derived` (`derived`: records made from several input
 * rows, such as an OSM site relation built from its member ways).
 */

/** How many skip examples are kept per reason (the short form, on stderr). */
export const EXAMPLES_PER_REASON = 5;

/**
 * How many skipped records `skippedRecords` lists at most (about 150 MB). Every skip of the
 * real extracts is listed; the bound keeps a whole Overture release (tens of millions of
 * rows, most of them not food or drink) from filling memory, and `skippedRecordsComplete`
 * says when it was reached.
 */
export const MAX_LISTED_SKIPS = 1_000_000;

/** One skipped input record: its source id (`node/123`, `fhrs:456`, `line 7`), the reason and a detail. */
export interface SkippedRecord {
  reason: string;
  ref: string;
  detail?: string;
}

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
  /** Every skipped record in input order (the first MAX_LISTED_SKIPS); `examples` above are their first five per reason. */
  skippedRecords: SkippedRecord[];
  /** False when more records were skipped than MAX_LISTED_SKIPS (the counts stay exact). */
  skippedRecordsComplete: boolean;
}

export class ImportReport {
  read = 0;
  written = 0;
  derived = 0;
  readonly skipReasons = new Map<string, SkipGroup>();
  readonly counters = new Map<string, number>();
  /** Invariant: the first `min(skipped, maxListed)` skips, in the order they were reported. */
  readonly skippedRecords: SkippedRecord[] = [];
  /** Said after the warning when nothing was written, on why (an Overture region that kept no row group: where the rows lie); not part of toJSON. */
  emptyHint: string | undefined;

  /** `maxListed`: how many skipped records to list (tests lower it). */
  constructor(
    readonly source: string,
    private readonly maxListed = MAX_LISTED_SKIPS,
  ) {}

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
    if (this.skippedRecords.length < this.maxListed) this.skippedRecords.push(detail ? { reason, ref, detail } : { reason, ref });
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
      skippedRecords: [...this.skippedRecords],
      skippedRecordsComplete: this.skippedRecords.length === this.skipped,
    };
  }

  /** Plain-text report for a terminal: five examples per reason, the rest only counted (toJSON lists every one). */
  format(): string {
    const j = this.toJSON();
    const lines = [
      `import ${j.source}: read ${j.read}, written ${j.written}, skipped ${j.skipped}` +
        (j.derived > 0 ? `, derived ${j.derived}` : ''),
    ];
    for (const [reason, g] of Object.entries(j.skipReasons)) {
      const more = g.count - g.examples.length;
      lines.push(`  skipped ${g.count} ${reason}: ${g.examples.join('; ')}${more > 0 ? `; and ${more} more (all listed by --report-json)` : ''}`);
    }
    for (const [name, n] of Object.entries(j.counters)) lines.push(`  ${name}: ${n}`);
    return lines.join('\n');
  }
}
