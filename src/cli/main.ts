#!/usr/bin/env node
import { Command } from 'commander';
import { registerImportCommands } from './import-command.js';

/** The `venue-search` command line. Each command family registers itself here. */
const program = new Command('venue-search').description('in-process venue search: import, query and serve venue data');
registerImportCommands(program);
await program.parseAsync(process.argv);
