#!/usr/bin/env node
import { Command } from 'commander';
import { registerImportCommands } from './import-command.js';
import { registerServiceCommands } from './service-commands.js';

/** The `venue-search` command line. Each command family registers itself here. */
const program = new Command('venue-search').description('in-process venue search: import, query and serve venue data');
registerImportCommands(program);
registerServiceCommands(program);
await program.parseAsync(process.argv);
