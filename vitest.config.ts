import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // vitest's default is cores - 1, one worker on a 2-core machine; most tests wait on git and CLI processes, so a
    // second worker keeps both cores busy (measured: 657 s with one, 462 s with two, 3 overload the machine).
    maxWorkers: 2,
  },
});
