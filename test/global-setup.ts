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
import {
  accessSync,
  constants,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statfsSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** statfs f_type of tmpfs (linux/magic.h TMPFS_MAGIC). */
const TMPFS = 0x01021994;
/** The install tests (vitest.install.config.ts shares this setup) hold about 370 MB at their peak. */
const ROOM = 2 * 1024 ** 3;

/**
 * /dev/shm when it is tmpfs with room to spare and may run programs (the tests run git hooks and npm's bin shims from
 * there; containers often mount it small and `noexec`); otherwise none.
 */
function ramFolder(): string | undefined {
  try {
    const fs = statfsSync('/dev/shm');
    if (fs.type !== TMPFS || fs.bavail * fs.bsize < ROOM) return undefined;
    const probe = mkdtempSync('/dev/shm/vw-probe-');
    try {
      writeFileSync(join(probe, 'x'), '#!/bin/sh\n', { mode: 0o755 });
      accessSync(join(probe, 'x'), constants.X_OK);
    } finally {
      rmSync(probe, { recursive: true, force: true });
    }
    return '/dev/shm';
  } catch {
    return undefined;
  }
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * The folders of earlier runs that were stopped (Ctrl-C or a signal skips the teardown): on a RAM disk they would
 * hold memory until the next reboot. A folder whose run is still going, or that names no run, is left alone.
 */
function removeAbandoned(base: string): void {
  for (const name of readdirSync(base)) {
    if (!name.startsWith('vw-suite-')) continue;
    try {
      const pid = Number(readFileSync(join(base, name, 'RUN_PID'), 'utf8'));
      if (Number.isInteger(pid) && pid > 0 && !alive(pid)) rmSync(join(base, name), { recursive: true, force: true });
    } catch {
      // Not ours, or being removed by its own run.
    }
  }
}

export default function setup(): () => void {
  // A TMPDIR the user chose is kept: the run folder goes under it.
  const base = process.env.TMPDIR ? tmpdir() : (ramFolder() ?? tmpdir());
  removeAbandoned(base);
  const root = mkdtempSync(join(base, 'vw-suite-'));
  writeFileSync(join(root, 'RUN_PID'), String(process.pid));
  // Workers, and the git and CLI processes they start, take their temporary folder from TMPDIR (os.tmpdir()).
  process.env.TMPDIR = root;
  return () => rmSync(root, { recursive: true, force: true });
}
