import { Writable } from 'node:stream';
import { Command } from 'commander';
import { registerSnapshotCommand } from '../../src/cli/snapshot-command.js';

/** Runs `venue-search <args>` (the snapshot command) in-process; what it writes to stderr goes to `said.text`, kept when the command fails. */
export async function runSnapshotCommand(said: { text: string }, args: string[]): Promise<void> {
  const stderr = new Writable({
    write(chunk: Buffer, _enc, done) {
      said.text += String(chunk);
      done();
    },
  });
  const program = new Command('venue-search').exitOverride();
  registerSnapshotCommand(program, stderr);
  await program.parseAsync(args, { from: 'user' });
}
