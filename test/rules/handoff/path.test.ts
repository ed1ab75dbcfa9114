// handoff/path: the seed's handoff_path "thoughts/handoffs/<session>/task-[NN]-[desc].md", and section 4's "the two
// must agree" for the file name's NN and the `task` key.
import { describe, expect, it } from 'vitest';
import { findings, describeRuleContract } from '../../helpers/rule-tester.js';
import { HANDOFFS, PLAN, lineOf, md, plan, strict, taskHandoff } from '../fixtures.js';

const ID = 'handoff/path';

describe(ID, () => {
  it('passes task-NN-<kebab-desc>.md in a session folder, under either handoffs root', () => {
    const files = {
      [PLAN]: plan(),
      [`${HANDOFFS}/task-01-add-users-table.md`]: taskHandoff(1, { previous: undefined }),
      'thoughts/shared/handoffs/auth-2/task-01-add-2fa.md': taskHandoff(1),
      'thoughts/handoffs/big/task-100-last-one.md': taskHandoff(100, { previous: undefined }),
    };
    expect(findings(files, ID)).toEqual([]);
    expect(findings(files, ID, strict())).toEqual([]);
  });

  it('passes a YAML task handoff named task-NN-<kebab-desc>.yaml or .yml, and judges its name like a .md one', () => {
    // Issue 24: `task-01-x.yaml` was always "not named task-NN-<desc>.md", an error in strict.
    const yaml = (n: number) =>
      md(
        'status: complete',
        `task: ${n}`,
        'task_desc: Add users table',
        'files_modified: [src/db.ts]',
        'verification_results: [{check: npm test, result: pass}]',
        'context_for_next: none',
      );
    const good = {
      [`${HANDOFFS}/task-01-add-users-table.yaml`]: yaml(1),
      [`${HANDOFFS}/task-02-add-login.yml`]: yaml(2),
    };
    expect(findings(good, ID, strict())).toEqual([]);
    expect(findings({ [`${HANDOFFS}/task-3-Add_Login.yaml`]: yaml(3) }, ID).map((f) => f.messageId)).toEqual([
      'notPadded',
      'notKebab',
    ]);
  });

  it('reports a task number that is not zero-padded to two digits', () => {
    const path = `${HANDOFFS}/task-3-add-login.md`;
    expect(findings({ [path]: taskHandoff(3) }, ID)).toEqual([
      expect.objectContaining({
        file: path,
        line: 1,
        severity: 'warning',
        messageId: 'notPadded',
        message: 'Task number "3" in "task-3-add-login.md" is not zero-padded to two digits.',
      }),
    ]);
    expect(findings({ [`${HANDOFFS}/task-003-add-login.md`]: taskHandoff(3) }, ID)).toEqual([
      expect.objectContaining({ messageId: 'notPadded', message: expect.stringContaining('"003"') }),
    ]);
  });

  it('reports a description that is not kebab-case', () => {
    for (const name of ['task-03-Add_Login.md', 'task-03-add login.md', 'task-03-add--login.md']) {
      expect(findings({ [`${HANDOFFS}/${name}`]: taskHandoff(3) }, ID), name).toEqual([
        expect.objectContaining({
          line: 1,
          messageId: 'notKebab',
          message: expect.stringContaining('is not kebab-case'),
        }),
      ]);
    }
  });

  it('reports a file name whose number disagrees with the task key, at the key', () => {
    const text = taskHandoff(4);
    const path = `${HANDOFFS}/task-03-add-login.md`;
    expect(findings({ [path]: text }, ID)).toEqual([
      expect.objectContaining({
        file: path,
        line: lineOf(text, 'task: 4'),
        messageId: 'taskMismatch',
        message: 'File name says task 3 but the `task` key says 4.',
      }),
    ]);
  });

  it('reports a handoff with a task key that is not named task-NN-<desc>.md', () => {
    const path = `${HANDOFFS}/login-handoff.md`;
    expect(findings({ [path]: taskHandoff(3) }, ID)).toEqual([
      expect.objectContaining({
        file: path,
        line: 1,
        messageId: 'badName',
        message: 'Task handoff "login-handoff.md" is not named task-NN-<desc>.md (or .yaml).',
      }),
    ]);
    expect(findings({ [`${HANDOFFS}/task-03.md`]: taskHandoff(3) }, ID)).toEqual([
      expect.objectContaining({ messageId: 'badName', message: expect.stringContaining('"task-03.md" is not named') }),
    ]);
  });

  it('leaves session handoffs of the other dialects alone', () => {
    const files = {
      [`${HANDOFFS}/2026-11-20_10-15-00_auth.md`]: md('# Handoff', 'text'),
      [`${HANDOFFS}/validation-auth.md`]: md('# Validation', 'ok'),
      [`${HANDOFFS}/session.yaml`]: md('goal: x', 'now: y'),
    };
    expect(findings(files, ID)).toEqual([]);
  });

  it('leaves a handoff outside a session folder to layout/paths', () => {
    expect(findings({ 'thoughts/handoffs/task-3-Bad.md': taskHandoff(3) }, ID)).toEqual([]);
  });

  it('is an error in strict', () => {
    expect(findings({ [`${HANDOFFS}/task-3-add-login.md`]: taskHandoff(3) }, ID, strict())).toEqual([
      expect.objectContaining({ severity: 'error' }),
    ]);
  });
});

describeRuleContract(
  ID,
  { [`${HANDOFFS}/task-3-Add_Login.md`]: taskHandoff(3), [`${HANDOFFS}/task-04-x.md`]: taskHandoff(5) },
  { recommended: 'warning', strict: 'error' },
);
