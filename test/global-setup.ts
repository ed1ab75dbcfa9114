// Once per vitest run, before any worker starts (vitest.config.ts globalSetup): one folder for every temporary file
// of the run, removed when the run ends.
//
// Why a RAM-backed folder where the machine has one: the suite makes and deletes tens of thousands of files (a git
// repository per test, the objects of each commit, folders of CLI runs). On ext4 that costs the kernel an inode
// search past recently deleted inodes for every new file: on an idle two-core machine the suite took 70 s of system
// time on /tmp and 41 s on /dev/shm, and 105 s wall against 85 s. The repositories are real git repositories either
// way; only the file system under them differs.
//
// Why one folder for the run: workers are stopped, not exited, when the run ends, so a worker's own `exit` cleanup
// never ran, and every run left folders behind (hundreds of vw-init-* after a day of runs).
import { mkdtempSync, rmSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** statfs f_type of tmpfs (linux/magic.h TMPFS_MAGIC). */
const TMPFS = 0x01021994;

/** A RAM-backed temporary folder: /dev/shm when it is tmpfs (Linux), otherwise none. */
function ramFolder(): string | undefined {
  try {
    return statfsSync('/dev/shm').type === TMPFS ? '/dev/shm' : undefined;
  } catch {
    return undefined;
  }
}

export default function setup(): () => void {
  // A TMPDIR the user chose is kept: the run folder goes under it.
  const base = process.env.TMPDIR ? tmpdir() : (ramFolder() ?? tmpdir());
  const root = mkdtempSync(join(base, 'vw-suite-'));
  // Workers, and the git and CLI processes they start, take their temporary folder from TMPDIR (os.tmpdir()).
  process.env.TMPDIR = root;
  return () => rmSync(root, { recursive: true, force: true });
}
