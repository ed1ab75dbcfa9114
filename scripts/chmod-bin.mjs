// tsc does not keep the executable bit; npm links the bin itself, but running dist/cli/main.js directly needs it.
import { chmodSync } from 'node:fs';
chmodSync('dist/cli/main.js', 0o755);
