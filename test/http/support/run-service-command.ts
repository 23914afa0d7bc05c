import { Command } from 'commander';
import { vi } from 'vitest';
import { registerServiceCommands } from '../../../src/cli/service-commands.js';

/** Runs one operator command in-process (`accounts create ...`) and returns the JSON it printed. */
export async function runServiceCommand(...args: string[]): Promise<unknown> {
  const out: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out.push(String(chunk));
    return true;
  });
  try {
    const program = new Command('venue-search').exitOverride();
    registerServiceCommands(program);
    await program.parseAsync(args, { from: 'user' });
  } finally {
    vi.restoreAllMocks();
  }
  return JSON.parse(out.join(''));
}
