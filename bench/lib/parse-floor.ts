import { fileChunks } from '../../src/data/file-chunks.js';
import { LineChunker, forEachLine } from '../../src/data/ndjson-lines.js';

/** Figures of the parse floor, beside readVenues and createEngineFromFile (load + build). */
export const PARSE_FLOOR_DROPPED = 'floor: JSON.parse of every line alone, objects dropped (ms)';
export const PARSE_FLOOR_KEPT = 'floor: JSON.parse of every line alone, objects kept (ms)';

/**
 * The floor under readVenues and createEngineFromFile: the same NDJSON file read as they read
 * it (1 MB chunks into two buffers, the reader's own line cutting and decoding), each line given to
 * JSON.parse, nothing validated, no store built. `keep`: the parsed objects are kept in an
 * array, as readVenues keeps its records (the garbage collector then copies and promotes
 * every one of them); otherwise each is dropped once parsed, as createEngineFromFile drops
 * its records. Returns the number of lines parsed.
 */
export async function parseFloor(path: string, keep: boolean): Promise<number> {
  const kept: unknown[] = [];
  let parsed = 0;
  const parseLine = (text: string): void => {
    const value: unknown = JSON.parse(text);
    parsed++;
    if (keep) kept.push(value);
  };
  const chunker = new LineChunker();
  for await (const chunk of fileChunks(path, 1 << 20)) {
    for (const lines of chunker.push(chunk)) forEachLine(lines, 1, parseLine);
  }
  const rest = chunker.end();
  if (rest !== null) forEachLine(rest, 1, parseLine);
  return parsed;
}
