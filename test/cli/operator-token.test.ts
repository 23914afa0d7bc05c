// The operator token file's mode (audit 63b F3): a warning, as ssh gives for a private key,
// when its group or others can read or write it; nothing for an owner-only file. Oracle: the
// modes set here with chmod and the exact message.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { operatorTokenFileWarning, operatorTokenProblem } from '../../src/cli/operator-token.js';

const tmp = mkdtempSync(join(tmpdir(), 'operator-token-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe.skipIf(process.platform === 'win32')('operatorTokenFileWarning', () => {
  const file = join(tmp, 'admin.token');
  writeFileSync(file, 'an-operator-token-of-enough-length\n');
  const at = (mode: number): string | undefined => {
    chmodSync(file, mode);
    return operatorTokenFileWarning(file);
  };

  it('nothing for a file only its owner can read or write (0600, 0400, 0700)', () => {
    for (const mode of [0o600, 0o400, 0o700]) expect(at(mode), mode.toString(8)).toBeUndefined();
  });

  it('a warning naming the file, its mode, who can read or write it, and the chmod that fixes it', () => {
    expect(at(0o644)).toBe(
      `warning: the operator token file ${file} has mode 0644: readable by its group, readable by others, and whoever reads the token can change the venue data; make it owner-only: chmod 600 ${file}`,
    );
    expect(at(0o640)).toContain('has mode 0640: readable by its group, and whoever');
    expect(at(0o602)).toContain('has mode 0602: writable by others, and whoever');
    expect(at(0o666)).toContain('has mode 0666: readable and writable by its group, readable and writable by others,');
  });

  it('nothing for a file that is not there (its reading reports that)', () => {
    expect(operatorTokenFileWarning(join(tmp, 'missing'))).toBeUndefined();
  });
});

// audit 73d F6: every refused token got the same words; now what is wrong is said, never the token
describe('operatorTokenProblem says what is wrong with a token, not the token', () => {
  const rule = 'it must be one word of at least 16 characters; make one with: head -c 32 /dev/urandom | base64';
  it.each([
    ['', `the operator token in F is empty: ${rule}`],
    ['short', `the operator token in F has 5 characters: ${rule}`],
    ['two words of enough length', `the operator token in F has white space in it: ${rule}`],
    ['tab\tseparated-but-long-enough', `the operator token in F has white space in it: ${rule}`],
  ])('%j', (token, said) => {
    expect(operatorTokenProblem(token, 'F')).toBe(said);
  });
  it('nothing for one word of 16 visible ASCII characters', () => {
    expect(operatorTokenProblem('0123456789abcdef', 'F')).toBeUndefined();
  });
});
