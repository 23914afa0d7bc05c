// `serve --admin-token-file` and `venues upsert` end to end: real processes, the change log
// on disk checked with the service's start path afterwards.
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, cpSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { loadEngineFile } from '../../src/cli/load-engine.js';
import { LiveVenues } from '../../src/changelog/live-venues.js';
import { FIXTURES_PATH, loadFixtureVenues } from '../search/support.js';
import { CLI_MAIN } from '../support/cli.js';
import { adminRoutesOf } from './support/admin-routes-line.js';

const tmp = mkdtempSync(join(tmpdir(), 'live-cli-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  rmSync(tmp, { recursive: true, force: true });
});

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI_MAIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += String(d)));
    child.stderr!.on('data', (d) => (stderr += String(d)));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * `serve --admin-token-file` on the fixtures, node started with `nodeFlags`: resolves once it
 * prints its admin routes, with their base URL and the stderr lines printed until then.
 */
async function startLiveServer(token: string, liveDir: string, db: string, nodeFlags: string[] = [], data = FIXTURES_PATH): Promise<{ server: ChildProcess; base: string; startLines: string[] }> {
  const server = spawn(
    process.execPath,
    [...nodeFlags, CLI_MAIN, 'serve', '--data', data, '--port', '0', '--db', db, '--admin-token-file', token, '--live-dir', liveDir],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  children.push(server);
  const startLines: string[] = [];
  const base = await adminRoutesOf(server, startLines);
  return { server, base, startLines };
}

describe('venue-search serve --admin-token-file and venues upsert', () => {
  it('sends a file in batches, stops at a bad record naming its line, and the changes are in the log', async () => {
    const token = join(tmp, 'token');
    writeFileSync(token, 'cli-test-operator-token-0001\n', { mode: 0o600 });
    const liveDir = join(tmp, 'live');
    const noRecords = join(tmp, 'no-records.json');
    writeFileSync(noRecords, '[]\n');
    // the three services are independent (own live directory, own database): started at once,
    // not one after the other (this test's ~20 processes in turn overran its budget on a busy 2-core machine)
    const [{ server, base, startLines: firstStartLines }, flagged, empty] = await Promise.all([
      startLiveServer(token, liveDir, join(tmp, 'a.sqlite')),
      startLiveServer(token, join(tmp, 'live-flagged'), join(tmp, 'f.sqlite'), ['--single-threaded-gc']),
      startLiveServer(token, join(tmp, 'live-empty'), join(tmp, 'e.sqlite'), [], noRecords),
    ]);

    // On two cores or fewer a live service started without node --single-threaded-gc is
    // reminded of it (docs/updates.md, "A service on two cores"); started with it, it is not.
    const reminder = 'start node with --single-threaded-gc';
    expect(firstStartLines.some((l) => l.includes(reminder))).toBe(availableParallelism() <= 2);
    expect(flagged.startLines.some((l) => l.includes(reminder))).toBe(false);
    flagged.server.kill('SIGTERM');

    // A live service starts from a venues file of no records, to be filled through its admin
    // routes (audit 61b N9; a service without --admin-token-file refuses one).
    const put = await fetch(`${empty.base}/admin/venues`, {
      method: 'PUT',
      headers: { authorization: 'Bearer cli-test-operator-token-0001', 'content-type': 'application/x-ndjson' },
      body: `${JSON.stringify({ id: 'first-venue', name: 'The First', location: { type: 'Point', coordinates: [51.5, -0.1] } })}\n`,
    });
    expect(put.status).toBe(200);
    expect(await put.json()).toMatchObject({ inserted: 1, venues: 1 });
    empty.server.kill('SIGTERM');

    // A second service on the same live directory is refused while the first runs: two
    // writers would put the same sequence numbers into one change log.
    const secondRun = run(['serve', '--data', FIXTURES_PATH, '--port', '0', '--db', join(tmp, 'b.sqlite'), '--admin-token-file', token, '--live-dir', liveDir]);

    // The command's own mistakes: one line each, no stack trace (run at once with the refused
    // second service: none of them changes anything)
    const someFile = join(tmp, 'some.ndjson');
    writeFileSync(someFile, '{}\n');
    const mistakes = [
      [['--server', base, '--file', someFile, '--token-file', join(tmp, 'no-such-token')], 'no-such-token not found'],
      [['--server', base, '--file', join(tmp, 'no-such.ndjson'), '--token-file', token], 'no-such.ndjson not found'],
      [['--server', 'notaurl', '--file', someFile, '--token-file', token], '--server must be the service'],
      [['--server', 'ftp://127.0.0.1/', '--file', someFile, '--token-file', token], '--server must be an http:// or https:// URL'],
      [['--server', base, '--file', tmp, '--token-file', token], 'is not a file'],
      // a wrong file given as the token (here the test's own records): refused, its content not echoed
      [['--server', base, '--file', someFile, '--token-file', someFile], `the operator token in ${someFile} has 2 characters: it must be one word of at least 16 characters`],
    ] as const;
    const [second, ...mistaken] = await Promise.all([secondRun, ...mistakes.map(([args]) => run(['venues', 'upsert', ...args]))]);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`is in use by process ${server.pid}`);
    expect(second.stderr).not.toContain(reminder); // a start that fails prints its error alone
    for (const [k, [, message]] of mistakes.entries()) {
      const r = mistaken[k]!;
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`^venue-search: .*${message.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`));
      expect(r.stderr).not.toMatch(/\n\s+at /); // no stack
      expect(r.stderr).not.toContain('Bearer');
    }

    const fixtures = loadFixtureVenues();
    const records = Array.from({ length: 2500 }, (_, k) =>
      k < 100 ? { ...fixtures[k]!, name: `Changed ${k}` } : { id: `cli-${k}`, name: `New ${k}`, location: { type: 'Point', coordinates: [51.5, -0.1 + k * 1e-5] } },
    );
    const good = join(tmp, 'changes.ndjson');
    writeFileSync(good, records.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const ok = await run(['venues', 'upsert', '--server', base, '--file', good, '--token-file', token, '--batch', '1000']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toEqual({ batches: 3, records: 2500, inserted: 2400, replaced: 100 });

    const bad = join(tmp, 'bad.ndjson');
    const lines = [0, 1, 2, 3].map((k) => JSON.stringify({ id: `late-${k}`, name: 'Late', location: { type: 'Point', coordinates: [51.5, -0.1] } }));
    lines.push(JSON.stringify({ id: 'late-bad', name: 'Bad', location: { type: 'Point', coordinates: [51.5, 500] } }));
    writeFileSync(bad, `\n${lines.slice(0, 2).join("\n")}\n\n${lines.slice(2).join("\n")}\n`);
    const twice = join(tmp, 'twice.ndjson');
    const dupLines = ['a', 'b', 'c', 'a'].map((id) => JSON.stringify({ id: `twice-${id}`, name: 'Twice', location: { type: 'Point', coordinates: [51.5, -0.1] } }));
    writeFileSync(twice, `\n\n${dupLines.join('\n')}\n`);
    // a raw OSM points line: the hint serve and snapshot give, through the service (audit 63d finding 3)
    const rawOsm = join(tmp, 'raw-osm.ndjson');
    writeFileSync(rawOsm, `${JSON.stringify({ osm_id: 'node/451152', lat: 51.6, lon: -0.19, tags: { amenity: 'pub', name: 'King of Prussia' } })}\n`);
    // venues remove: ids one a line (blank lines skipped); an id the service does not hold is
    // counted as unknown; an id with '/' or ':' goes percent-encoded.
    const idsFile = join(tmp, 'ids.txt');
    writeFileSync(idsFile, ['cli-2498', '', 'no-such:venue/id', 'cli-2497', 'cli-2498'].join('\n') + '\n');
    // Nothing listens there: nothing was sent, and the cause is named (audit 61a: "fetch failed ... was sent").
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const freePort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const nowhere = `http://127.0.0.1:${freePort}`;
    const wrongToken = join(tmp, 'wrong');
    writeFileSync(wrongToken, 'not-the-operator-token-at-all');
    // every one of these is refused and changes nothing (the log is checked below): run at once
    const [refused, dup, raw, recordsAsIds, noAdmin, upsertNowhere, badPort, denied] = await Promise.all([
      run(['venues', 'upsert', '--server', base, '--file', bad, '--token-file', token]),
      run(['venues', 'upsert', '--server', base, '--file', twice, '--token-file', token]),
      run(['venues', 'upsert', '--server', base, '--file', rawOsm, '--token-file', token]),
      // A file of venue records given to remove (audit 61a): refused before anything is sent.
      run(['venues', 'remove', '--server', base, '--file', good, '--token-file', token]),
      run(['venues', 'remove', '--server', nowhere, '--file', idsFile, '--token-file', token]),
      run(['venues', 'upsert', '--server', nowhere, '--file', good, '--token-file', token]),
      // a port fetch never connects to (the Fetch standard's blocked ports)
      run(['venues', 'remove', '--server', 'http://127.0.0.1:9', '--file', idsFile, '--token-file', token]),
      run(['venues', 'upsert', '--server', base, '--file', good, '--token-file', wrongToken]),
    ]);
    expect(refused.code).toBe(1);
    // the service's record number within the batch (5) is said as the file's line (7): one numbering (audit 61a)
    expect(refused.stderr).toContain(`${bad}: line 7: batch of lines 2..7 refused (400): line 7, venue "late-bad", field location.coordinates[1]`);
    expect(refused.stderr).toContain('late-bad');
    // ... and points to the command that lists every bad record at once (audit 74c F3)
    expect(refused.stderr).toContain(`(\`venue-search venues check --file ${bad}\` lists every bad record, sending nothing)\n`);
    expect(dup.code).toBe(1);
    expect(dup.stderr).toContain(`${twice}: line 6: batch of lines 3..6 refused (400): line 6: duplicate venue id "twice-a" in one batch (first at line 3)`);
    expect(raw.code).toBe(1);
    expect(raw.stderr).toContain(`${rawOsm}: line 1: batch of lines 1..1 refused (400): line 1, field id: expected required property; got undefined (a raw OpenStreetMap export is imported first: \`venue-search import osm\`); 0 earlier batches were applied`);
    expect(recordsAsIds.code).toBe(1);
    expect(recordsAsIds.stderr).toMatch(new RegExp(`^venue-search: ${good.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: line 1: "\\{.*…" is not a venue id \\(a venue record: this command takes venue ids, one a line; \`venues upsert\` takes records\\); nothing was removed\\n$`));
    expect(noAdmin.code).toBe(1);
    expect(noAdmin.stderr).toContain(`venue-search: cannot reach ${nowhere}: connect ECONNREFUSED 127.0.0.1:${freePort} (0 venues removed before; the removal of line 1 was not sent: running the same file again is safe`);
    expect(upsertNowhere.code).toBe(1);
    expect(upsertNowhere.stderr).toMatch(new RegExp(`^venue-search: cannot reach http://127\\.0\\.0\\.1:${freePort}: connect ECONNREFUSED 127\\.0\\.0\\.1:${freePort} \\(0 batches applied before; the batch of lines 1\\.\\.\\d+ was not sent: running the same file again is safe`));
    expect(badPort.stderr).toContain('cannot reach http://127.0.0.1:9: fetch refuses port 9 (one of the ports browsers block): serve the admin routes on another port (0 venues removed before; the removal of line 1 was not sent');
    expect(denied.code).toBe(1);
    expect(denied.stderr).toContain('401');

    const removed = await run(['venues', 'remove', '--server', base, '--file', idsFile, '--token-file', token]);
    expect(removed.code, removed.stderr).toBe(0);
    // the unknown id and the repeated one are named with their lines (audit 75b F2: a count only)
    expect(JSON.parse(removed.stdout)).toEqual({ removed: 2, unknown: 1, repeated: 1 });
    expect(removed.stderr).toContain(`venue-search: ${idsFile}: line 3: the service holds no venue "no-such:venue/id" (never added, or removed before): counted as unknown\n`);
    expect(removed.stderr).toContain(`venue-search: ${idsFile}: line 5: "cli-2498" repeats line 1: not sent again\n`);
    // run again: each id removed before is now unknown, said by line
    const again = await run(['venues', 'remove', '--server', base, '--file', idsFile, '--token-file', token]);
    expect(JSON.parse(again.stdout)).toEqual({ removed: 0, unknown: 3, repeated: 1 });
    expect(again.stderr).toContain(`venue-search: ${idsFile}: line 1: the service holds no venue "cli-2498" (never added, or removed before): counted as unknown\n`);

    server.kill('SIGKILL');
    await new Promise((r) => server.once('exit', r));
    const live = await LiveVenues.open({ dataPath: FIXTURES_PATH, dir: liveDir, compactAfter: 0, load: async (p) => (await loadEngineFile(p, (m) => { throw new Error(m); })).engine });
    expect(live.engine.size).toBe(fixtures.length + 2400 - 2);
    expect(live.engine.basic(fixtures[7]!.id).name).toBe('Changed 7');
    expect(live.engine.basic('cli-2499').name).toBe('New 2499');
    expect(live.engine.has('cli-2498') || live.engine.has('cli-2497')).toBe(false);
    expect(live.engine.has('late-0')).toBe(false);
    await live.compact(); // writes <live-dir>/base.snapshot
    await live.close();
    // A batch torn by a crash mid-write (never acknowledged): cut at the next start, and said so.
    const { appendFileSync } = await import('node:fs');
    const tornLine = '12345678 {"seq":99,"op":"upsert","rec';
    appendFileSync(join(liveDir, 'changes.log'), tornLine);

    // A new data file shipped afterwards is not what is served: serve says so, even when the
    // copy kept the building machine's older modification time (rsync -a, cp -p).
    const shipped = join(tmp, 'shipped.ndjson');
    const rebuilt = readFileSync(FIXTURES_PATH, 'utf8').trimEnd().split('\n').slice(0, -1);
    writeFileSync(shipped, `${rebuilt.join('\n')}\n`);
    const built = statSync(join(liveDir, 'base.snapshot')).mtime.getTime() / 1000 - 3600;
    utimesSync(shipped, built, built);
    const restarted = spawn(
      process.execPath,
      [CLI_MAIN, 'serve', '--data', shipped, '--port', '0', '--db', join(tmp, 'a.sqlite'), '--admin-token-file', token, '--live-dir', liveDir],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    children.push(restarted);
    const startLines = await new Promise<string[]>((resolve, reject) => {
      const seen: string[] = [];
      const timer = setTimeout(() => reject(new Error(`server did not start: ${seen.join('\n')}`)), 60_000);
      createInterface({ input: restarted.stderr! }).on('line', (line) => {
        seen.push(line);
        if (line.startsWith('warning:') || line.startsWith('Development') || seen.length > 3) {
          clearTimeout(timer);
          resolve(seen);
        }
      });
    });
    restarted.kill('SIGKILL');
    // what is served is named first: the compacted base, not --data
    const serving = startLines.findIndex((l) => l.startsWith('venue-search: serving'));
    expect(startLines[serving]).toMatch(new RegExp(`^venue-search: serving ${join(liveDir, 'base.snapshot').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} on http`));
    expect(startLines[serving + 1]).toMatch(/^Admin routes on http:\/\/.*\/admin\/ \(PUT venues, DELETE venues\/\{id\}, POST compact; live data in .*; 0 logged batches replayed, 0 pending changes; cut a torn last line of \d+ bytes from the log, a batch never acknowledged \(kept in changes\.log\.torn\)\)$/);
    expect(startLines[serving + 1]).toContain(`of ${Buffer.byteLength(tornLine)} bytes`);
    // the cut bytes are kept, not thrown away (audit 59e)
    expect(readFileSync(join(liveDir, 'changes.log.torn'), 'utf8')).toMatch(new RegExp(`^# [0-9T:.Z-]+: ${Buffer.byteLength(tornLine)} bytes cut from the end of the log at byte \\d+\\n`));
    expect(readFileSync(join(liveDir, 'changes.log.torn'), 'utf8').split('\n')[1]).toBe(tornLine.replace(/\n$/, ''));
    expect(startLines).toContain(`Base: ${join(liveDir, 'base.snapshot')} (compacted from --data and the changes since; --data is not read while it exists)`);
    expect(startLines.some((l) => l.startsWith(`warning: --data ${shipped} is not the file ${join(liveDir, 'base.snapshot')} was compacted from`) && l.includes('NOT served'))).toBe(true);

    // The compacted base moved away, or a link to nothing in its place (audit 61b N1): refused,
    // naming it, not served from --data without the changes compacted into it.
    const compactedBase = join(liveDir, 'base.snapshot');
    const movedAway = join(tmp, 'moved-away.snapshot');
    renameSync(compactedBase, movedAway);
    const missingSaid = `venue-search: the live directory's compacted base ${compactedBase} is missing`;
    const withoutBase = await run(['serve', '--data', shipped, '--port', '0', '--db', join(tmp, 'a.sqlite'), '--admin-token-file', token, '--live-dir', liveDir]);
    expect(withoutBase.code).toBe(1);
    expect(withoutBase.stderr.trim()).toBe(
      `${missingSaid}: the changes compacted into it are no longer in the change log, so --data is not served without it. Put it back (docs/snapshots.md: copy it, never move it), or start with a fresh --live-dir to serve --data without those changes`,
    );
    symlinkSync(join(tmp, 'not-mounted', 'base.snapshot'), compactedBase);
    const dangling = await run(['serve', '--data', shipped, '--port', '0', '--db', join(tmp, 'a.sqlite'), '--admin-token-file', token, '--live-dir', liveDir]);
    expect(dangling.code).toBe(1);
    expect(dangling.stderr.trim().startsWith(`${missingSaid} (a link to nothing): `)).toBe(true);
    rmSync(compactedBase);
    renameSync(movedAway, compactedBase);
  }, 120_000);

  it('a live service starts from the 0-byte file `import` writes for no venue, as from `[]` or blank lines: one rule for no records, whatever the bytes (audit 62a 5)', async () => {
    const token = join(tmp, 'token-zero');
    writeFileSync(token, 'cli-test-operator-token-0003\n', { mode: 0o600 });
    const zeroBytes = join(tmp, 'no-venue.ndjson');
    writeFileSync(zeroBytes, '');
    const fromZero = await startLiveServer(token, join(tmp, 'live-zero'), join(tmp, 'z.sqlite'), [], zeroBytes);
    expect(fromZero.startLines.some((l) => l.startsWith(`venue-search: read 0 venues from ${zeroBytes} (an empty file) in `))).toBe(true);
    const put = await fetch(`${fromZero.base}/admin/venues`, {
      method: 'PUT',
      headers: { authorization: 'Bearer cli-test-operator-token-0003', 'content-type': 'application/x-ndjson' },
      body: `${JSON.stringify({ id: 'first-venue', name: 'The First', location: { type: 'Point', coordinates: [51.5, -0.1] } })}\n`,
    });
    expect(put.status).toBe(200);
    expect(await put.json()).toMatchObject({ inserted: 1, venues: 1 });
    fromZero.server.kill('SIGTERM');
    // without --admin-token-file it is still refused, as an empty file
    const refused = await run(['serve', '--data', zeroBytes, '--port', '0', '--db', join(tmp, 'z2.sqlite')]);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toBe(`venue-search: ${zeroBytes} is empty: it holds no venue records (an empty file is a mistake, not a data set)`);
  }, 120_000);

  it('live-data flags without --admin-token-file are refused; changes kept beside the data but not served are named; an unusable --live-dir is one line', async () => {
    const token = join(tmp, 'token2');
    writeFileSync(token, 'cli-test-operator-token-0002\n', { mode: 0o600 });
    const noStack = (stderr: string) => expect(stderr).not.toMatch(/\n\s+at /);

    const aFile = join(tmp, 'a-file');
    writeFileSync(aFile, 'not a folder');
    const inTheWay = await run(['serve', '--data', FIXTURES_PATH, '--port', '0', '--db', join(tmp, 'c.sqlite'), '--admin-token-file', token, '--live-dir', aFile]);
    expect(inTheWay.code).toBe(1);
    expect(inTheWay.stderr.trim()).toBe(`venue-search: --live-dir ${aFile} cannot be used: a file is in the way of the folder`);

    // A missing --data, or a folder given as --data, is named as such (audit 59e: it was
    // blamed on the live directory), and no live directory is left behind.
    const { mkdirSync, existsSync } = await import('node:fs');
    const missing = join(tmp, 'no-such.vsnap');
    const folder = join(tmp, 'a-folder.vsnap');
    mkdirSync(folder);
    for (const [data, said] of [
      [missing, `venue-search: data file not found: ${missing} (give a venues NDJSON, JSON or GeoJSON file, or a snapshot, with --data)`],
      [folder, `venue-search: --data must be a file; ${folder} is not`],
    ] as const) {
      const refused = await run(['serve', '--data', data, '--port', '0', '--db', join(tmp, 'm.sqlite'), '--admin-token-file', token, '--live-dir', join(tmp, 'live-of-missing')]);
      expect(refused.code).toBe(1);
      expect(refused.stderr.trim()).toBe(said);
      expect(existsSync(join(tmp, 'live-of-missing'))).toBe(false);
    }

    // A folder where a compaction writes the base is named as the live directory's base, not as
    // --data (as every file of the live directory is checked: live-dir-files.ts, audit 67a F1).
    const baseInTheWay = join(tmp, 'live-base-folder');
    mkdirSync(join(baseInTheWay, 'base.snapshot'), { recursive: true });
    const badBase = await run(['serve', '--data', FIXTURES_PATH, '--port', '0', '--db', join(tmp, 'b.sqlite'), '--admin-token-file', token, '--live-dir', baseInTheWay]);
    expect(badBase.code).toBe(1);
    expect(badBase.stderr.trim()).toBe(
      `venue-search: --live-dir ${baseInTheWay} cannot be used: ${join(baseInTheWay, 'base.snapshot')} is a folder, where the live directory keeps the compacted base (a file). It was left as it is: move it away, then start again`,
    );

    // A compacted base of another snapshot format (an older version's): its changes are only
    // there, so the advice is to export them with that version, not "write it again from the NDJSON" (audit 61c F6).
    const olderDir = join(tmp, 'live-older-format');
    mkdirSync(olderDir);
    const olderBase = join(olderDir, 'base.snapshot');
    const { writeSnapshot } = await import('../../src/snapshot/write-snapshot.js');
    const { createEngine } = await import('../../src/engine.js');
    writeSnapshot(createEngine(loadFixtureVenues().slice(0, 50)), olderBase);
    const bytes = readFileSync(olderBase);
    const [start, length] = [bytes.readDoubleLE(8), bytes.readDoubleLE(16)];
    const header = JSON.parse(bytes.toString('utf8', start, start + length)) as { format: number; headerDigest?: string };
    // an older format's header: without the seal (src/snapshot/header-digest.ts), which came later
    bytes.write(JSON.stringify({ ...header, headerDigest: undefined, format: header.format - 1 }).padEnd(length, ' '), start, 'utf8');
    writeFileSync(olderBase, bytes);
    const older = await run(['serve', '--data', FIXTURES_PATH, '--port', '0', '--db', join(tmp, 'o.sqlite'), '--admin-token-file', token, '--live-dir', olderDir]);
    expect(older.code).toBe(1);
    expect(older.stderr.trim()).toBe(
      `venue-search: the live directory's compacted base ${olderBase} was written by another version (format ${header.format - 1}, this version reads format ${header.format}), and the changes compacted into it are only there: ` +
        'run the version that wrote it on this directory once more and write its current venues out as NDJSON (docs/updates.md, "Upgrading a live directory"), then start this version from that file with a fresh --live-dir',
    );

    // Data inside node_modules (the package's fixtures): the default live directory would be lost at the next install.
    mkdirSync(join(tmp, 'node_modules', 'pkg'), { recursive: true });
    const packaged = join(tmp, 'node_modules', 'pkg', 'venues.ndjson');
    copyFileSync(FIXTURES_PATH, packaged);
    const inModules = await run(['serve', '--data', packaged, '--port', '0', '--db', join(tmp, 'g.sqlite'), '--admin-token-file', token]);
    expect(inModules.code).toBe(1);
    expect(inModules.stderr.trim()).toBe(`venue-search: the default live directory ${packaged}.live is inside node_modules, where a reinstall would delete the change log: give --live-dir`);

    for (const [flags, named] of [
      [['--live-dir', join(tmp, 'unused')], '--live-dir'],
      [['--compact-after', '10'], '--compact-after'],
    ] as const) {
      const r = await run(['serve', '--data', FIXTURES_PATH, '--port', '0', '--workers', '1', '--db', join(tmp, 'd.sqlite'), ...flags]);
      expect(r.code).toBe(1);
      expect(r.stderr.trim()).toBe(`venue-search: ${named} is for live data: give --admin-token-file too (without it, --data is served as it is and no change log is read)`);
      noStack(r.stderr);
    }

    // A change log beside the data (the default live directory) that a start without the token would ignore.
    const data = join(tmp, 'static.ndjson');
    copyFileSync(FIXTURES_PATH, data);
    mkdirSync(`${data}.live`);
    writeFileSync(join(`${data}.live`, 'changes.log'), '');
    const server = spawn(process.execPath, [CLI_MAIN, 'serve', '--data', data, '--port', '0', '--workers', '1', '--db', join(tmp, 'e.sqlite')], { stdio: ['ignore', 'ignore', 'pipe'] });
    children.push(server);
    const lines: string[] = [];
    createInterface({ input: server.stderr! }).on('line', (line) => lines.push(line));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`serve did not start: ${lines.join(' | ')}`)), 60_000);
      const poll = setInterval(() => {
        if (!lines.some((l) => l.startsWith('venue-search: serving'))) return;
        clearInterval(poll);
        clearTimeout(timer);
        resolve();
      }, 20);
    });
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    expect(lines.at(-1)).toBe('venue-search: SIGTERM: closing (requests in flight are answered first)');
    const first = lines[0];
    expect(first).toBe(`warning: ${data}.live holds live changes (changes.log) that this start does NOT serve: --data ${data} is served as it is; give --admin-token-file to serve them`);
  }, 120_000);

  // docs/deploy.md "Many machines", adding an instance (audit 62b findings 4 and 5): the lock
  // copied with the directory named L1's running service, and L4 was refused in its name
  it('a new instance started on a copy of a running instance\'s live directory (cp -a L1 L4) replaces the copied lock and serves the changes; L1 keeps its own', async () => {
    const token = join(tmp, 'token-copy');
    writeFileSync(token, 'cli-test-operator-token-0001\n', { mode: 0o600 });
    const l1 = join(tmp, 'L1');
    const one = await startLiveServer(token, l1, join(tmp, 'l1.sqlite'));
    const auth = { authorization: 'Bearer cli-test-operator-token-0001', 'content-type': 'application/x-ndjson' };
    const put = await fetch(`${one.base}/admin/venues`, {
      method: 'PUT',
      headers: auth,
      body: `${JSON.stringify({ id: 'copied-venue', name: 'The Copy', location: { type: 'Point', coordinates: [51.5, -0.1] } })}\n`,
    });
    expect(put.status).toBe(200);
    const l4 = join(tmp, 'L4');
    cpSync(l1, l4, { recursive: true, preserveTimestamps: true });
    expect(readFileSync(join(l4, 'lock'), 'utf8')).toMatch(new RegExp(`^${one.server.pid} `));
    const four = await startLiveServer(token, l4, join(tmp, 'l4.sqlite'));
    try {
      expect(four.startLines).toContain(
        `venue-search: the lock of the live directory ${l4} (${join(l4, 'lock')}) was written for another directory (folder ${statSync(l1).dev}:${statSync(l1).ino}, this one ${statSync(l4).dev}:${statSync(l4).ino}: copied with it, cp -a); it is stale and is replaced`,
      );
      expect(four.startLines.join('\n')).toContain('1 logged batches replayed');
      // L4 holds the venue sent to L1 before the copy: removing it there finds it
      const removed = await fetch(`${four.base}/admin/venues/copied-venue`, { method: 'DELETE', headers: auth });
      expect(removed.status).toBe(200);
      expect(readFileSync(join(l4, 'lock'), 'utf8')).toMatch(new RegExp(`^${four.server.pid} `));
      // L1 still holds its directory and the venue (its own lock, untouched)
      expect(readFileSync(join(l1, 'lock'), 'utf8')).toMatch(new RegExp(`^${one.server.pid} `));
      const again = await fetch(`${one.base}/admin/venues/copied-venue`, { method: 'DELETE', headers: auth });
      expect(again.status).toBe(200);
    } finally {
      for (const s of [one.server, four.server]) {
        const gone = new Promise((r) => s.once('exit', r));
        s.kill('SIGTERM');
        await gone;
      }
    }
  }, 120_000);
});
