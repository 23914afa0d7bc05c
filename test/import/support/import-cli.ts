/** `venue-search import ...` run in-process through its commands (no child process): what it wrote on stderr, and what it threw. */
import { PassThrough } from 'node:stream';
import { Command } from 'commander';
import { registerImportCommands } from '../../../src/cli/import-command.js';

export async function runImportCli(args: string[]): Promise<{ stderr: string; error: unknown }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const chunks: Buffer[] = [];
  stdout.resume();
  stderr.on('data', (c: Buffer) => chunks.push(c));
  const program = new Command('venue-search').exitOverride().configureOutput({ writeErr: () => {} });
  registerImportCommands(program, { stdout, stderr });
  let error: unknown;
  try {
    await program.parseAsync(['node', 'venue-search', ...args]);
  } catch (err) {
    error = err;
  }
  return { stderr: Buffer.concat(chunks).toString(), error };
}
