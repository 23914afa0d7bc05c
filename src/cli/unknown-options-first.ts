/**
 * A mistyped option is said as unknown (with commander's "Did you mean") before a required
 * option is said to be missing. Commander checks required options first, so `serve --dat
 * a.ndjson` was told "required option '--data <file>' not specified", never that `--dat` was
 * not understood (audit 73d F3), while a mistyped optional flag got "unknown option '--ouptut'
 * (Did you mean --output?)". Relies on commander 14's missingMandatoryOptionValue and
 * unknownOption (marked private there; test/cli/unknown-options-first.test.ts checks them).
 */
import type { Command, Option } from 'commander';

/** The parts of a commander Command used here that its typings do not declare. */
interface CommandInternals {
  missingMandatoryOptionValue(option: Option): void;
  unknownOption(flag: string): void;
}

/** Makes `command` and every command under it say an unknown option before a missing required one. */
export function unknownOptionsFirst(command: Command): void {
  const internals = command as unknown as CommandInternals;
  const missing = internals.missingMandatoryOptionValue.bind(command);
  internals.missingMandatoryOptionValue = (option: Option): void => {
    // commander's `args` once options are parsed: operands, then the unknown options and what follows them
    const unknown = command.args.find((arg) => arg.length > 1 && arg.startsWith('-'));
    if (unknown !== undefined) internals.unknownOption(unknown);
    missing(option);
  };
  for (const sub of command.commands) unknownOptionsFirst(sub);
}
