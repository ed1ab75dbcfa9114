// lint() from JavaScript, where no type checker stops a bad option: each is an Error that names the option, what it
// takes and what it got, as the CLI would say it (issue 24: a bad preset was a raw TypeError from deep inside).
import { describe, expect, it } from 'vitest';
import { lint, type LintOptions } from '../../src/api/index.js';
import { makeRepo } from '../helpers/repo.js';

describe('lint() with options a JavaScript caller got wrong', () => {
  const dir = makeRepo({});
  const bad = (options: unknown) => lint({ cwd: dir, ...(options as LintOptions) });

  it('says what the option takes, never a TypeError', async () => {
    for (const [options, message] of [
      [{ preset: 'lenient' }, 'preset must be "recommended" or "strict" (got "lenient")'],
      [{ paths: 'thoughts' }, 'paths must be a list of strings (got "thoughts")'],
      [{ history: 'no' }, 'history must be true or false (got "no")'],
      [{ range: 5 }, 'range must be a string (got 5)'],
    ] as const) {
      const err = await bad(options).catch((e: unknown) => e);
      expect(err, JSON.stringify(options)).toBeInstanceOf(Error);
      expect(err).not.toBeInstanceOf(TypeError);
      expect((err as Error).message).toBe(message);
    }
  });
});
