/**
 * Audit 74c F3: `venues upsert` stops at the first refused batch, so a file with N bad records
 * took N runs to fix. `venues check` lists every bad record by the rules the service applies to
 * each batch, sending nothing. The oracle: a file written here with its faults placed by hand
 * (a latitude of 123 at line 3, a broken line 5, line 2's id again at line 8, no name at
 * line 9), and the messages each fault must get.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_MAIN } from '../support/cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'venues-check-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const venue = (id: string, name: string, lat: number, lon: number) => JSON.stringify({ id, name, location: { type: 'Point', coordinates: [lat, lon] } });

async function check(file: string, ...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [CLI_MAIN, 'venues', 'check', '--file', file, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += String(d)));
  child.stderr!.on('data', (d) => (stderr += String(d)));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

describe('venues check (audit 74c F3)', () => {
  const file = join(tmp, 'changes.ndjson');
  writeFileSync(
    file,
    [
      venue('v1', 'The Crown', 51.5, -0.1),
      venue('v2', 'The Swan', 51.51, -0.11),
      venue('v3', 'Far North', 123, -0.1),
      '',
      '{"id":"v4","name":"Broken"',
      venue('v5', 'The Bell', 51.52, -0.12),
      venue('v6', 'The Anchor', 51.53, -0.13),
      venue('v2', 'The Swan again', 51.51, -0.11),
      JSON.stringify({ id: 'v7', location: { type: 'Point', coordinates: [51.5, -0.1] } }),
      venue('v8', 'The Plough', 51.54, -0.14),
    ].join('\n') + '\n',
  );
  const lat = `venue-search: ${file}: line 3, venue "v3", field location.coordinates[0]: expected number to be less or equal to 90; got 123`;
  const broken = new RegExp(`^venue-search: ${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: line 5: not JSON: .+$`);
  const duplicate = `venue-search: ${file}: line 8: duplicate venue id "v2" in one batch (first at line 2)`;
  const noName = `venue-search: ${file}: line 9, venue "v7", field name: expected required property; got undefined`;

  it('lists every bad record in line order, counts the records, and exits 1', async () => {
    const { code, stdout, stderr } = await check(file);
    expect(code).toBe(1);
    expect(JSON.parse(stdout)).toEqual({ records: 9, bad: 4 });
    const said = stderr.trimEnd().split('\n');
    expect(said).toHaveLength(4);
    expect(said[0]).toBe(lat);
    expect(said[1]).toMatch(broken);
    expect(said.slice(2)).toEqual([duplicate, noName]);
  }, 60_000);

  it('judges a repeated id per batch, as the service does: with --batch 4, lines 2 and 8 are in different batches', async () => {
    const { code, stdout, stderr } = await check(file, '--batch', '4');
    expect(code).toBe(1);
    expect(JSON.parse(stdout)).toEqual({ records: 9, bad: 3 });
    const said = stderr.trimEnd().split('\n');
    expect([said[0], said[2]]).toEqual([lat, noName]);
    expect(said[1]).toMatch(broken);
  }, 60_000);

  it('a file with no bad record exits 0, saying nothing on stderr', async () => {
    const good = join(tmp, 'good.ndjson');
    writeFileSync(good, `${venue('g1', 'The George', 51.5, -0.1)}\n${venue('g2', 'The Grapes', 51.51, -0.1)}\n`);
    expect(await check(good)).toEqual({ code: 0, stdout: `${JSON.stringify({ records: 2, bad: 0 }, null, 2)}\n`, stderr: '' });
  }, 60_000);
});
