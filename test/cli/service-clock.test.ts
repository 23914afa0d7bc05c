/** The service clock: the system clock, or the clock file tests share across processes (src/cli/service-clock.ts). */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLOCK_FILE_ENV, serviceClock } from '../../src/cli/service-clock.js';

const dir = mkdtempSync(join(tmpdir(), 'service-clock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('serviceClock', () => {
  it('is Date.now without the variable', () => {
    const { clock, file } = serviceClock({});
    expect(file).toBeUndefined();
    expect(clock).toBe(Date.now);
  });

  it('reads the file at every call, so a rewrite moves it', () => {
    const path = join(dir, 'now');
    writeFileSync(path, '1893456000000\n');
    const { clock, file } = serviceClock({ [CLOCK_FILE_ENV]: path });
    expect(file).toBe(path);
    expect(clock()).toBe(Date.UTC(2030, 0, 1));
    writeFileSync(path, String(Date.UTC(2030, 0, 2, 0, 0, 1)));
    expect(clock()).toBe(1893542401000);
  });

  it('refuses a file without an integer (at start), naming the variable, the file and the text', () => {
    const path = join(dir, 'bad');
    writeFileSync(path, '12.5');
    expect(() => serviceClock({ [CLOCK_FILE_ENV]: path })).toThrow(`${CLOCK_FILE_ENV} file ${path} must hold ms since the epoch as an integer; got "12.5"`);
    expect(() => serviceClock({ [CLOCK_FILE_ENV]: join(dir, 'missing') })).toThrow(/ENOENT/);
  });
});
