import type { RawFinding, Rule } from '../types.js';
import type { Plan } from '../../model/types.js';

/**
 * The template's placeholders (templates/plan.md, `new plan`, `--fix-type scaffold`): a phase title, task, step or
 * criterion whose text starts with the word TODO. A TODO later in the text ("Remove the TODO comments") is the
 * plan's own words, not a blank left unfilled.
 */
const PLACEHOLDER = /^TODO\b/;

interface Blank {
  line: number;
  column: number;
  text: string;
}

function blanks(plan: Plan): Blank[] {
  const out: Blank[] = [];
  const add = (text: string, at: { line: number; column: number }) => {
    if (PLACEHOLDER.test(text.trim())) out.push({ line: at.line, column: at.column, text: text.trim() });
  };
  for (const phase of plan.phases) {
    add(phase.title, phase);
    for (const task of phase.tasks) {
      add(task.title, task);
      for (const step of task.steps) add(step.text, step);
    }
    for (const item of [...phase.automated, ...phase.manual, ...phase.unknown, ...phase.other]) add(item.text, item);
  }
  return out.sort((a, b) => a.line - b.line);
}

export const rule: Rule = {
  meta: {
    id: 'plan/placeholder',
    short: 'The plan holds no template placeholder (`TODO ...`) left unfilled.',
    severities: { recommended: 'warn', strict: 'error' },
    formula: '—',
    description:
      "The plan holds no placeholder of the template left unfilled: no phase title, task, step or verification item whose text starts with `TODO` (what `validate-workflow new plan` and `--fix-type scaffold` write for a human to fill in). A plan committed as scaffolded says nothing an agent can implement or a human can verify, and its TODO criteria would be checked off as if they were real. One finding per plan, at the first placeholder, with the count. A `TODO` later in an item's text is the plan's own words and is not judged.",
    fix: 'Replace every `TODO` placeholder with the phase title, task or criterion it stands for (or remove the item).',
    messages: {
      placeholder: 'The plan still holds a template placeholder: "{{text}}".',
      placeholderMany: 'The plan still holds {{count}} template placeholders (first: "{{text}}").',
    },
  },
  snapshot: (ws, ctx) => {
    const out: RawFinding[] = [];
    for (const plan of ws.plans.filter((p) => p.readable && (!ctx.focus || ctx.focus.has(p.path)))) {
      const found = blanks(plan);
      const first = found[0];
      if (!first) continue;
      out.push({
        file: plan.path,
        line: first.line,
        column: first.column,
        messageId: found.length > 1 ? 'placeholderMany' : 'placeholder',
        data: { text: first.text.length > 60 ? `${first.text.slice(0, 59)}…` : first.text, count: found.length },
      });
    }
    return out;
  },
};
