// The fixtures every rule test bends must be clean on their own, or a rule's "no finding" assertion proves nothing.
import { describe, expect, it } from 'vitest';
import { lintFiles } from '../helpers/rule-tester.js';
import { LEDGER, PLAN, handoffChain, ledger, plan } from './fixtures.js';

describe('rule test fixtures', () => {
  it('a canonical plan, handoff chain and ledger have no finding in either preset', () => {
    const files = {
      [PLAN]: plan({ tasksPerPhase: [2, 2], checked: [1, 2, 3], verified: [1] }),
      ...handoffChain(3),
      [LEDGER]: ledger({
        state: [
          '- [x] Task 1: Do step 1',
          '- [x] Task 2: Do step 2',
          '- [x] Task 3: Do step 3',
          '- [→] Task 4: Do step 4',
        ],
      }),
    };
    expect(lintFiles(files)).toEqual([]);
    expect(lintFiles(files, { preset: 'strict' })).toEqual([]);
  });
});
