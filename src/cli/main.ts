#!/usr/bin/env node
// Entry point of the `validate-workflow` bin: the command line (entry.ts) with this process's arguments.
import { timing } from '../shared/timing.js';
import { main } from './entry.js';

// Since the process started: node's own start and this module's load (the bench's "node start" and "bundle load").
timing('node start, main.js loaded', performance.now());

process.exitCode = await main(process.argv.slice(2));
