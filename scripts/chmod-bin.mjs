// tsc and esbuild do not set the executable bit; npm links the bin itself, but running the CLI directly needs it.
import { chmodSync } from 'node:fs';
chmodSync('dist/cli/main.js', 0o755);
chmodSync('dist/bundle/main.js', 0o755);
chmodSync('dist/bundle/fast-start.cjs', 0o755);
