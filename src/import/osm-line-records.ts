import { withoutRecordSeparator } from './osm-sources.js';

/** One record of a lines file: its text and the line (1-based) it begins on, which names it in the report (`line 12`). */
export interface LineRecord {
  readonly text: string;
  readonly line: number;
}

const RS = '\u001e';

/**
 * The records of a file `import osm` reads as lines, from its lines in order (a byte order mark
 * already dropped from the first).
 *
 * A file whose first line begins with RS (U+001E) is a JSON text sequence (RFC 7464; GeoJSON's
 * is RFC 8142): it is split on RS, each record running from one RS to the next whatever lines
 * it spans (`jq --seq .` pretty-prints each record over many; GDAL writes one a line), its line
 * ending kept inside it as JSON whitespace. RS cannot occur inside a JSON text (a control
 * character in a string is escaped), so the split is exact. A record cut short (the file
 * truncated) is left as it is: its JSON is not whole and it is skipped as a cut line is.
 *
 * Any other file is one record a line, an RS at a line's start dropped (withoutRecordSeparator).
 */
export class LineRecords {
  /** Decided by the first line: true for a JSON text sequence. */
  private sequence: boolean | undefined;
  /** The sequence record being read (lines joined by "\n"), or undefined before the first RS. */
  private text: string | undefined;
  private line = 0;

  /** True once the first line showed a JSON text sequence (its units are records, not lines). */
  get isSequence(): boolean {
    return this.sequence === true;
  }

  /** The records that line `n` completes (a sequence's record is complete at the next RS, or at the end). */
  push(line: string, n: number): LineRecord[] {
    this.sequence ??= line.startsWith(RS);
    if (!this.sequence) return [{ text: withoutRecordSeparator(line), line: n }];
    const parts = line.split(RS);
    const done: LineRecord[] = [];
    // Text before the line's first RS continues the record being read (none before the first RS: the first line begins with one).
    if (this.text !== undefined) this.text += `\n${parts[0] as string}`;
    for (const part of parts.slice(1)) {
      if (this.text !== undefined) done.push({ text: this.text, line: this.line });
      this.text = part;
      this.line = n;
    }
    return done;
  }

  /** The last record of a sequence, once every line is pushed. */
  end(): LineRecord[] {
    const last = this.text;
    this.text = undefined;
    return last === undefined ? [] : [{ text: last, line: this.line }];
  }
}

/**
 * A sequence record that is not one JSON text because lines follow its object or array (a stray
 * line without an RS, "garbage"): the record up to the end of that value, and the rest from its
 * first non-blank character (named by its own line, so it is skipped as a malformed line is and
 * the record before it is kept). Undefined when the record does not begin with `{` or `[`, or
 * its value does not close. Scans strings and brackets only; the caller parses both parts.
 */
export function splitAfterValue({ text, line }: LineRecord): [LineRecord, LineRecord] | undefined {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) {
      if (--depth === 0) return splitAt(text, line, i + 1);
    } else if (depth === 0 && c > 0x20) return undefined;
  }
  return undefined;
}

function splitAt(text: string, line: number, end: number): [LineRecord, LineRecord] | undefined {
  const rest = text.slice(end);
  const start = rest.search(/\S/);
  if (start === -1) return undefined;
  const restLine = line + (text.slice(0, end + start).match(/\n/g)?.length ?? 0);
  return [
    { text: text.slice(0, end), line },
    { text: rest.slice(start), line: restLine },
  ];
}
