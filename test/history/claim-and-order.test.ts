// Review of round 14: a plan's claim of completion gives way to the order rules only where plan/claimed-complete
// warns. Where that rule only notes automated items left behind (leftOpen, an info), the claim stands and nothing
// else reports the order, so a `status: complete` written in the same change must not let through a check-off the
// order rules' error refuses at the hooks.
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/model/finding.js';
import { ANA, CLAUDE, Repo, door, md } from './helpers.js';

const PLAN = 'thoughts/shared/plans/2026-10-07-invoice-reminders.md';

/** A plan for invoice reminders: phase 1's task and first check ticked, `go vet` left open; phase 2 as given. */
function reminders(status: string, taskTwo: ' ' | 'x'): string {
  return md(
    '---',
    `status: ${status}`,
    '---',
    '# Invoice reminders Implementation Plan',
    '',
    '## Phase 1: Reminder schedule',
    '',
    '- [x] Task 1: Compute the reminder dates from the due date',
    '',
    '### Success Criteria:',
    '',
    '#### Automated Verification:',
    '',
    '- [x] Schedule tests pass: `go test ./schedule/...`',
    '- [ ] `go vet ./...`',
    '',
    '## Phase 2: Reminder mail',
    '',
    `- [${taskTwo}] Task 2: Send the reminder on each date`,
    '',
    '### Success Criteria:',
    '',
    '#### Manual Verification:',
    '',
    '- [ ] A reminder for an overdue invoice reaches the test inbox',
    '',
  );
}

const seen = (list: Finding[]) =>
  list
    .filter((f) => ['plan/phase-order', 'plan/claimed-complete', 'history/phase-order'].includes(f.ruleId))
    .map((f) => `${f.ruleId}:${f.severity}`)
    .sort();

describe('a claim of completion that only notes boxes left behind does not silence phase order (review of round 14)', () => {
  function started(): Repo {
    const repo = Repo.create();
    repo.commit('Plan the invoice reminders', { [PLAN]: reminders('active', ' ') }, { author: ANA });
    return repo;
  }

  it('without a claim, checking Task 2 while `go vet` is open is refused by plan/phase-order', async () => {
    const repo = started();
    repo.stage({ [PLAN]: reminders('active', 'x') });
    const staged = await door(repo.dir, ['--staged'], repo.env(CLAUDE));
    expect(staged.code).toBe(1);
    expect(seen(staged.results)).toContain('plan/phase-order:error');
  });

  it('`status: complete` in the same change is refused as well: the claim only notes the open box', async () => {
    const repo = started();
    repo.stage({ [PLAN]: reminders('complete', 'x') });
    const staged = await door(repo.dir, ['--staged'], repo.env(CLAUDE));
    expect(staged.code).toBe(1);
    expect(seen(staged.results)).toContain('plan/phase-order:error');
    expect(seen(staged.results)).toContain('plan/claimed-complete:info');
  });
});
