// The instruction files of the commit being made. The doors that judge it (pre-commit, commit-msg, --staged) read
// what it will hold, the index's, not the working tree's: an untracked CLAUDE.md or an edit not staged is no part of
// the commit, and a run on a checkout of that commit (CI) would never read it. It also spares the walk of the working
// tree: git has listed the index already for the handover's key (engine/handover.ts), and its thousands of folders
// under thoughts/ cost a wide repository's commit 13 to 17 ms of system calls.
import { INSTRUCTION_FOLDERS, useInstructions, walkedFolder, walkedPath } from '../read/profile.js';
import { GITLINK_MODE, LINK_MODE } from '../history/links.js';
import { readBlobs } from '../shared/git.js';

const TEMPLATE = /template/i;
const FOLDER_LENGTHS = new Set(INSTRUCTION_FOLDERS.map((f) => f.length));

/**
 * Takes the index's instruction files (`index`: `git ls-files --stage -z`, as git printed it) for the door's run.
 * @returns false where the walk must read them instead: a conflict on one, or a link or a submodule where the walk
 * would follow it into a file or a folder (git lists the link, not what it leads to).
 */
export function instructionsOfIndex(root: string, index: string): boolean {
  const found: { path: string; blob: string }[] = [];
  // A wide repository's index holds thousands of records: each is passed over on its first folder's name, or on a
  // path under thoughts/ without the word `template`, before anything is made of it (a plainer loop cost as much as
  // the walk it replaces, and a regular expression over the whole listing half of it).
  for (const rec of index.split('\0')) {
    const tab = rec.indexOf('\t');
    if (tab < 0) continue;
    const slash = rec.indexOf('/', tab);
    let folder = '';
    if (slash >= 0) {
      if (!FOLDER_LENGTHS.has(slash - tab - 1)) continue;
      folder = rec.slice(tab + 1, slash).toLowerCase();
      if (!INSTRUCTION_FOLDERS.includes(folder)) continue;
    }
    const linked = rec.startsWith(LINK_MODE) || rec.startsWith(GITLINK_MODE);
    // Of thoughts/, only templates are instruction files (read/profile.ts candidate). The record's other fields are
    // digits and hexadecimal: the word can only be in its path.
    if (folder === 'thoughts' && !linked && !TEMPLATE.test(rec)) continue;
    const path = rec.slice(tab + 1);
    const [, blob, stage] = rec.slice(0, tab).split(' ');
    if (linked) {
      if (walkedPath(path) || walkedFolder(path)) return false;
      continue;
    }
    if (!walkedPath(path)) continue;
    if (stage !== '0' || blob === undefined) return false;
    found.push({ path, blob });
  }
  const bytes = readBlobs(
    root,
    found.map((f) => f.blob),
  );
  useInstructions(
    root,
    found.map((f): [string, Buffer | string] => [
      f.path,
      (bytes.get(f.blob) as Buffer | undefined) ?? 'unreadable: no such object',
    ]),
  );
  return true;
}
