// A mistyped required option is said as unknown, with "Did you mean", not as the real option
// missing (audit 73d F3: `serve --dat a.ndjson` was "required option '--data <file>' not
// specified"). For every required option of every command: its long name less its last letter
// is given (with a value), and the error must be commander's unknown option naming that spelling
// and suggesting the real one. A command with a required option left out, and no other, still
// says it is missing. Oracle: commander's own `mandatory` flag on each option and the names
// written out by hand in the expectations below.
import { Command, CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { registerImportCommands } from '../../src/cli/import-command.js';
import { registerServiceCommands } from '../../src/cli/service-commands.js';
import { registerSnapshotCommand } from '../../src/cli/snapshot-command.js';
import { registerVenuesCommand } from '../../src/cli/venues-command.js';
import { unknownOptionsFirst } from '../../src/cli/unknown-options-first.js';

/** Every command under `command`, with its words from the top (`['accounts', 'create']`). */
function allCommands(command: Command, path: string[] = []): { command: Command; path: string[] }[] {
  return [{ command, path }, ...command.commands.flatMap((c) => allCommands(c as Command, [...path, c.name()]))];
}

/** A fresh program whose commands throw instead of exiting, their messages gathered in `said`. */
function program(): { top: Command; said: string[] } {
  const top = new Command('venue-search');
  registerImportCommands(top);
  registerServiceCommands(top);
  registerSnapshotCommand(top);
  registerVenuesCommand(top);
  unknownOptionsFirst(top);
  const said: string[] = [];
  for (const { command } of allCommands(top)) {
    command.exitOverride();
    command.configureOutput({ writeErr: (text) => said.push(text), writeOut: () => {} });
  }
  return { top, said };
}

describe('a mistyped required option is an unknown option, with the real one suggested (audit 73d F3)', () => {
  it('for every required option of every command', async () => {
    const checked: string[] = [];
    for (const { command, path } of allCommands(program().top)) {
      for (const option of command.options.filter((o) => o.mandatory)) {
        const { top, said } = program();
        const typo = option.long!.slice(0, -1);
        const error = await top.parseAsync([...path, typo, 'x'], { from: 'user' }).catch((e: unknown) => e);
        expect(error, `${path.join(' ')} ${typo}`).toBeInstanceOf(CommanderError);
        expect((error as CommanderError).code, `${path.join(' ')} ${typo}`).toBe('commander.unknownOption');
        expect(said.join(''), `${path.join(' ')} ${typo}`).toBe(`error: unknown option '${typo}'\n(Did you mean ${option.long!}?)\n`);
        checked.push(`${path.join(' ')} ${option.long!}`);
      }
    }
    expect(checked).toEqual(expect.arrayContaining(['serve --data', 'snapshot --out', 'accounts create --plan', 'venues upsert --server']));
  });

  it('a required option left out, with no unknown one, is still said to be missing', async () => {
    const { top, said } = program();
    const error = await top.parseAsync(['serve', '--port', '8080'], { from: 'user' }).catch((e: unknown) => e);
    expect((error as CommanderError).code).toBe('commander.missingMandatoryOptionValue');
    expect(said.join('')).toBe("error: required option '--data <file>' not specified\n");
  });
});
