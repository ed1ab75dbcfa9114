// Runs before every test file (vitest.config.ts setupFiles), whether or not the file's modules are isolated.
import { afterAll } from 'vitest';
import { forgetMadeCommits } from './helpers/made-commits.js';
import { removeScratch } from './helpers/scratch.js';

afterAll(() => {
  removeScratch();
  forgetMadeCommits();
});
