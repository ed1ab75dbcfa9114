import { defineConfig, type Plugin } from 'vitest/config';

/**
 * Packages resolved as the bundle resolves them (scripts/bundle.mjs: esbuild's default conditions), without the
 * `development` condition Vite adds. Under it micromark and its extensions load their dev builds, which assert
 * micromark's own invariants and call `debug` on every token: markdown parsed about twice as slowly as in the tool
 * users run (the plans of thoughts/, warm: 730 ms against 360 ms), checking code that is not ours (the tool adds no
 * micromark extension of its own). Measured on the whole suite: about 25 s less CPU of 230 s. Vitest passes the same
 * conditions to its workers (`--conditions`), so Vite's resolution and Node's agree.
 */
export const asBundled: Plugin = {
  name: 'validate-workflow:as-bundled',
  configEnvironment: {
    order: 'post',
    handler(_name, config) {
      if (config.resolve?.conditions)
        config.resolve.conditions = config.resolve.conditions.filter((c) => c !== 'development|production');
    },
  },
};

/** What every run of the suite shares; vitest.install.config.ts runs test/install/ with it. */
export const shared = {
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
  // One temporary folder for the run, on a RAM disk where there is one, removed at the end: test/global-setup.ts.
  globalSetup: ['test/global-setup.ts'],
};

export default defineConfig({
  plugins: [asBundled],
  test: {
    ...shared,
    include: ['test/**/*.test.ts'],
    // test/install/ installs the tool as users do (npm packing it, building it from git, the pre-commit framework
    // building it in its cache): minutes of npm and the build on both cores, more than the rest of the suite. They
    // are packaging tests, not the engine's: `npm run test:install` runs them (vitest.install.config.ts), and
    // .ci/run runs that after `npm test`, so CI still installs the tool every way the README gives.
    exclude: ['test/install/**', 'node_modules/**'],
  },
});
