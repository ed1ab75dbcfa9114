import type { Rule, RawFinding } from '../../../rules/types.js';
import { maxNameLength } from '../config.js';
import { planFiles } from '../model.js';

/** The checks of the seed, in its order; each broken one is named in the finding. */
export function brokenChecks(name: string, limit: number): string[] {
  const broken: string[] = [];
  const base = name.slice(name.lastIndexOf('/') + 1);
  if (name === '' || base === '' || base === '.md') broken.push('empty name');
  if (name.startsWith('/') || /^[A-Za-z]:[\\/]/.test(name)) broken.push('absolute path');
  if (name.includes('/')) broken.push('"/" (no subfolders)');
  if (name.split('/').some((part) => part === '..' || part.includes('..'))) broken.push('".."');
  if (name.split('/').some((part) => part.startsWith('.'))) broken.push('hidden name');
  if (!name.endsWith('.md')) broken.push('".md" suffix');
  if (!/^[a-z0-9_-]*$/.test(name.endsWith('.md') ? name.slice(0, -3) : name))
    broken.push('characters (only a-z0-9-_ before ".md")');
  if (name.length > limit) broken.push(`length (${name.length} > ${limit} characters)`);
  return broken;
}

export const rule: Rule = {
  meta: {
    id: 'soong-plans/file-name',
    short: 'A soong plan file has a safe name.',
    severities: { recommended: 'error', strict: 'error' },
    formula:
      'name =~ /^[a-z0-9_-]+\\.md$/ & !hidden(name) & !contains(name, "..") & !absolute(name) & len(name) <= 100',
    description:
      'A plan file under `.soong-agent/plans/` has a safe name as the soong agent core validates it: only a-z0-9-_ then `.md`, no `/`, no `..`, not hidden, not empty, not absolute, at most 100 characters (`packs["soong-plans"].maxNameLength`).',
    fix: 'Rename the plan to a short lowercase slug such as `implement-auth-flow.md` directly under `.soong-agent/plans/`.',
    messages: {
      badName: 'Plan file name "{{name}}" breaks the seed\'s name rule: {{broken}}.',
    },
  },
  packSnapshot: (packs, ctx) => {
    const out: RawFinding[] = [];
    const limit = maxNameLength(ctx.config);
    for (const file of planFiles(packs)) {
      const name = file.model?.name ?? file.path;
      const broken = brokenChecks(name, limit);
      if (broken.length === 0) continue;
      out.push({ file: file.path, line: null, messageId: 'badName', data: { name, broken: broken.join('; ') } });
    }
    return out;
  },
};
