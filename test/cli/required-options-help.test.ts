// Every required option says so in its command's help (audit 62a 13: `accounts create --plan`
// did not). Oracle: commander's own `mandatory` flag on each option, against the help text.
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { registerImportCommands } from '../../src/cli/import-command.js';
import { registerServiceCommands } from '../../src/cli/service-commands.js';
import { registerSnapshotCommand } from '../../src/cli/snapshot-command.js';
import { registerVenuesCommand } from '../../src/cli/venues-command.js';

function allCommands(command: Command): Command[] {
  return [command, ...command.commands.flatMap((c) => allCommands(c as Command))];
}

describe('help marks required options "(required)"', () => {
  it('every mandatory option of every command, accounts create --plan included (audit 62a 13)', () => {
    const program = new Command('venue-search');
    registerImportCommands(program);
    registerServiceCommands(program);
    registerSnapshotCommand(program);
    registerVenuesCommand(program);
    const required: string[] = [];
    for (const command of allCommands(program)) {
      const help = command.helpInformation().split('\n');
      for (const option of command.options.filter((o) => o.mandatory)) {
        const line = help.find((l) => l.trimStart().startsWith(option.flags));
        required.push(`${command.name()} ${option.long ?? option.flags}`);
        expect(line, `${command.name()} ${option.flags}`).toMatch(/ \(required\) /);
      }
    }
    expect(required).toContain('create --plan');
    expect(required.length).toBeGreaterThanOrEqual(5);
  });
});
