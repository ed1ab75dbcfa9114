// Runs before every test file (vitest.config.ts setupFiles), whether or not the file's modules are isolated.
import { afterAll } from 'vitest';
import { forgetMadeCommits } from './helpers/made-commits.js';
import { removeScratch } from './helpers/scratch.js';
import { loadParsers } from '../src/read/lazy.js';

// The CLI and the engine load the parsers when they are about to read (src/read/lazy.ts); tests call the readers
// directly.
await loadParsers();

afterAll(() => {
  removeScratch();
  forgetMadeCommits();
});
