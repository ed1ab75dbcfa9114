import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // vitest's default is cores - 1, one worker on a 2-core machine; most tests wait on git and CLI processes, so a
    // second worker keeps both cores busy (measured: 657 s with one, 462 s with two, 3 overload the machine).
    maxWorkers: 2,
    // One worker process serves many test files, the modules they share loaded once: with isolation every file paid
    // a fresh node process and a fresh import of the engine (measured on 24 files: 104 s of CPU isolated, 69 s
    // not). Safe because no test mocks modules or leaves process.env changed; the helpers' temporary folders are
    // removed after each file by the setup file.
    isolate: false,
    setupFiles: ['test/setup.ts'],
    // test/install/ installs the tool as users do (npm building it from git, the pre-commit framework building it in
    // its cache): minutes of npm and the build on both cores. Run beside the rest, it starves the hook tests past
    // their timeouts; it runs after them instead (a group of its own).
    projects: [
      {
        extends: true,
        test: {
          name: 'main',
          include: ['test/**/*.test.ts'],
          exclude: ['test/install/**', 'node_modules/**'],
          sequence: { groupOrder: 0 },
        },
      },
      { extends: true, test: { name: 'install', include: ['test/install/**/*.test.ts'], sequence: { groupOrder: 1 } } },
    ],
  },
});
