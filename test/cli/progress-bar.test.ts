// The command line's progress bar: silent off a terminal; on one, bytes shown in MB; a stop
// signal restores the terminal (cursor shown, line wrapping on) before the process stops.
import { spawnSync } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { progressBar } from '../../src/cli/progress-bar.js';

function terminal(): { stream: PassThrough & { isTTY: boolean; columns: number; cursorTo: () => boolean; clearLine: () => boolean; moveCursor: () => boolean }; text: () => string } {
  const stream = Object.assign(new PassThrough(), { isTTY: true, columns: 120, cursorTo: () => true, clearLine: () => true, moveCursor: () => true });
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  return { stream, text: () => Buffer.concat(chunks).toString() };
}

describe('progressBar', () => {
  it('writes nothing when the stream is not a terminal', () => {
    const stream = new PassThrough();
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    const bar = progressBar(stream, 'bytes');
    bar.update(5, 10);
    bar.stop();
    expect(chunks).toEqual([]);
  });

  it('shows bytes as MB with one decimal, and items as they are', () => {
    const bytes = terminal();
    const b = progressBar(bytes.stream, 'bytes');
    b.update(1_436_633, 2_873_266);
    b.stop();
    expect(bytes.text()).toContain('50% | ETA: ');
    expect(bytes.text()).toContain('1.4/2.9 MB');
    const items = terminal();
    const i = progressBar(items.stream);
    i.update(15, 30);
    i.stop();
    expect(items.text()).toContain('15/30');
    expect(items.text()).not.toContain('MB');
  });

  it('without a total (a file read as it comes): a count alone, no percentage, no ETA (audit 72e F5: "100% | ETA: 0s | 287/0")', () => {
    const term = terminal();
    const bar = progressBar(term.stream);
    bar.update(0, undefined);
    bar.update(287, undefined);
    bar.stop();
    expect(term.text()).toContain('287 so far');
    expect(term.text()).not.toContain('%');
    expect(term.text()).not.toContain('ETA');
  });

  it('a stop signal while the bar runs shows the cursor and turns line wrapping back on; another listener of the signal keeps the process', () => {
    const term = terminal();
    const bar = progressBar(term.stream);
    const before = process.listenerCount('SIGINT');
    bar.update(5, 10);
    expect(process.listenerCount('SIGINT')).toBe(before + 1);
    expect(term.text()).toContain('\x1b[?25l'); // cursor hidden while it runs
    const kept = (): void => {};
    process.on('SIGINT', kept); // the command's own handler (serve's close): the process is its to stop
    try {
      process.emit('SIGINT', 'SIGINT');
    } finally {
      process.off('SIGINT', kept);
    }
    const after = term.text().slice(term.text().lastIndexOf('\x1b[?25l'));
    expect(after).toContain('\x1b[?25h');
    expect(after).toContain('\x1b[?7h');
    expect(process.listenerCount('SIGINT')).toBe(before);
    bar.stop(); // stopped already: nothing more
  });

  it('alone, the signal then stops the process as it would have (a child process interrupts itself)', () => {
    const script = `
      import { PassThrough } from 'node:stream';
      import { progressBar } from ${JSON.stringify(new URL('../../src/cli/progress-bar.ts', import.meta.url).pathname)};
      const stream = Object.assign(new PassThrough(), { isTTY: true, columns: 80, cursorTo: () => true, clearLine: () => true, moveCursor: () => true });
      stream.pipe(process.stdout);
      progressBar(stream).update(1, 10);
      setTimeout(() => process.kill(process.pid, 'SIGINT'), 50);
      setTimeout(() => { console.log('still running'); process.exit(0); }, 3000);
    `;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(child.signal).toBe('SIGINT');
    expect(child.stdout).not.toContain('still running');
    expect(child.stdout).toContain('\x1b[?25h');
  });
});
