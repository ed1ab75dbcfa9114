// What the triggering event says: which commits to judge by default and which pull request gets the comment. The
// runner writes the webhook payload to $GITHUB_EVENT_PATH; only the few fields below are read.
import { gitSync } from '../shared/git.js';
import { readFileSync } from 'node:fs';
import { InputError } from './inputs.js';

export interface EventFacts {
  /** The pull request's number, or null when the run is not about one (no comment is posted then). */
  pullRequest: number | null;
  /** `base..head` of a pull request, `before..after` of a push; null: the whole history. */
  range: string | null;
  /** Why the whole history is judged when the event named a range, for the log. */
  note?: string;
}

interface Payload {
  pull_request?: { number?: number; base?: { sha?: string }; head?: { sha?: string } };
  before?: string;
  after?: string;
}

function payload(env: NodeJS.ProcessEnv): Payload {
  const path = env.GITHUB_EVENT_PATH;
  if (!path) return {};
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Payload;
  } catch (err) {
    throw new InputError(`cannot read the event payload at GITHUB_EVENT_PATH (${path}): ${(err as Error).message}`);
  }
}

/** The commit is in the clone: a shallow checkout, or a push that force-replaced `before`, may lack it. */
function present(cwd: string, sha: string): boolean {
  return gitSync(cwd, ['cat-file', '-e', `${sha}^{commit}`]).ok;
}

export function eventFacts(env: NodeJS.ProcessEnv, cwd: string): EventFacts {
  const event = payload(env);
  const pr = event.pull_request;
  let from: string | undefined;
  let to: string | undefined;
  if (pr) {
    from = pr.base?.sha;
    to = pr.head?.sha;
  } else if (env.GITHUB_EVENT_NAME === 'push') {
    from = event.before;
    to = event.after;
  }
  const pullRequest = typeof pr?.number === 'number' ? pr.number : null;
  // A new branch is pushed with before = 0000…: nothing came before it on the remote, so all of it is new.
  if (!from || !to || /^0+$/.test(from)) return { pullRequest, range: null };
  // Judging more than the range is stricter, never laxer: better the whole history than a run that cannot start.
  const missing = [from, to].find((sha) => !present(cwd, sha));
  if (missing)
    return {
      pullRequest,
      range: null,
      note: `${missing.slice(0, 12)} (of the event's range ${from.slice(0, 12)}..${to.slice(0, 12)}) is not in this clone: judging the whole history`,
    };
  return { pullRequest, range: `${from}..${to}` };
}
