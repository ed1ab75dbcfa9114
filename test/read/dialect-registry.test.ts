// The dialect registry (issue 19): one module per dialect, every module registered, the registry and the model's
// lists in step, and each dialect detected where the convention says.
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HANDOFF_DIALECT_MODULES, PLAN_DIALECT_MODULES, handoffDialectOf } from '../../src/read/dialects/index.js';
import { HANDOFF_DIALECTS, PLAN_DIALECTS } from '../../src/model/types.js';
import { readPlanText } from '../../src/read/plan.js';
import { readHandoffText } from '../../src/read/handoff.js';
import { md } from '../rules/fixtures.js';

const modulesIn = (kind: string) =>
  readdirSync(new URL(`../../src/read/dialects/${kind}/`, import.meta.url))
    .filter((f) => f.endsWith('.ts'))
    .map((f) => f.replace(/\.ts$/, ''));

describe('the dialect registry', () => {
  it('registers one module per file, named as the model names them', () => {
    expect(PLAN_DIALECT_MODULES.map((d) => d.name).sort()).toEqual([...PLAN_DIALECTS].sort());
    expect(HANDOFF_DIALECT_MODULES.map((d) => d.name).sort()).toEqual([...HANDOFF_DIALECTS].sort());
    expect(modulesIn('plan').sort()).toEqual([...PLAN_DIALECTS].sort());
    // The handoff module of HandoffDialect `plan` lives in handoff/plan.ts, like every other.
    expect(modulesIn('handoff').sort()).toEqual([...HANDOFF_DIALECTS].sort());
  });

  it.each([
    ['task-01-add-login.yaml', 'yaml-session', 'yaml'],
    ['task-01-add-login.md', 'task', 'markdown'],
    ['2026-03-02_14-05-09_login-flow.md', 'humanlayer', 'markdown'],
    ['validation-login.md', 'validation', 'markdown'],
    ['auto-handoff-2026-03-02.md', 'auto', 'markdown'],
    ['plan-login.md', 'plan', 'markdown'],
    ['notes.md', 'other', 'markdown'],
  ])('a handoff file %s is %s, read as %s', (fileName, name, format) => {
    expect(handoffDialectOf(fileName)).toMatchObject({ name, format });
    const text = format === 'yaml' ? 'status: complete\ntask: 1\n' : '# Handoff\n\n**Status:** Done\n';
    expect(readHandoffText(`thoughts/handoffs/s1/${fileName}`, 'thoughts/handoffs', text).dialect).toBe(name);
  });

  const criteria = ['#### Automated Verification:', '- [ ] `make test`', '#### Manual Verification:', '- [ ] Open it'];
  it.each([
    ['phase-headings', md('# P', '## Phase 1: Schema', ...criteria, '## Phase 2: API', ...criteria)],
    ['numbered-phases', md('# P', '## Phases', '### 1.1 Cache', ...criteria, '### 1.2 Warm-up', ...criteria)],
    ['task-headings', md('# P', '### Task 1: Schema', '- [ ] Write it', '### Task 2: API', '- [ ] Serve it')],
    ['checklist', md('# P', '- [ ] Task 1: Schema', '- [ ] Task 2: API')],
    ['unstructured', md('# P', '## Phase 1: Schema', ...criteria, '## Phase 1: Schema again', ...criteria)],
    ['not-a-plan', md('# Timings', '## Phase 1', '| step | s |', '| --- | --- |', '| parse | 3 |')],
  ])('a plan is read as %s', (dialect, text) => {
    expect(readPlanText('thoughts/shared/plans/p.md', text).dialect).toBe(dialect);
  });
});
