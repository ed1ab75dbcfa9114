// Criteria headings and bold labels: what a heading says about the kind of the checkboxes under it. Shared by the
// plan reader, the phase-heading dialects (`### Phase 2 Success Criteria`) and the profile (what instructions ask for).

/**
 * `unknown`: an undivided `Success Criteria` list. `unknown-verify`: a verification heading that says neither kind
 * (`### Verification`): each item is judged by what it says, a command in backticks automated, anything else a
 * human's (the safe side for the gate).
 */
export type CriteriaKind = 'automated' | 'manual' | 'unknown' | 'unknown-verify';

/**
 * What a criteria heading or bold label says about its items: `Automated Verification`, `Automated:`,
 * `Automated Testing`, `Manual Testing`, `Human Verification`, `Success Criteria (automated)`; `Success Criteria`
 * alone is undivided. A verification label that is neither clearly automated nor clearly manual (`Verification
 * Steps`) is manual: its items are a human's until the plan says otherwise (the safe side for the gate). Only a
 * short label counts: a sentence that mentions "manual" is not a criteria heading.
 */
/**
 * The letters (lower case, nothing but a-z) that every label criteriaKindOf gives a kind starts with: the plan
 * reader's skim (read/plan.ts) reads a section with a bold line that may start so. criteriaKindOf gives no kind to a
 * label that starts otherwise, so a pattern added below with a new first word does nothing until its word is here,
 * and then the skim reads it too (a new label the skim dropped would change the gate's reading without a failing test).
 */
export const CRITERIA_LABEL_STARTS: readonly string[] = [
  'automat',
  'manual',
  'human',
  'user',
  'visual',
  'handson',
  'success',
  'acceptance',
  'completion',
  'verification',
  'exit',
  'definitionofdone',
  'donewhen',
  'finalverification',
  'phasegate',
  'qualitygate',
  'gate',
  'ci',
  'test',
  'check',
  'command',
];

export function criteriaKindOf(label: string): CriteriaKind | null {
  const text = label
    .replace(/[:.]\s*$/, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
  // An aside in brackets (`CI-only (cannot be satisfied locally — do not tag until these are green)`) is no part
  // of the label's length: rewording the aside must not change the kind of the items under it.
  if (text.replace(/\s*\(.*\)$/, '').length > 60) return null;
  const letters = text.replace(/[^a-z]/g, '');
  if (!CRITERIA_LABEL_STARTS.some((w) => letters.startsWith(w))) return null;
  const what = String.raw`(?: (?:verification|testing|tests?|checks?|criteria|validation|qa|steps))?(?: ?\(.*\))?`;
  if (/^(?:automated|automatic) verification\b/.test(text) || new RegExp(`^(?:automated|automatic)${what}$`).test(text))
    return 'automated';
  if (/^manual verification\b/.test(text) || new RegExp(`^manual${what}$`).test(text)) return 'manual';
  if (
    new RegExp(
      `^(?:human|user|visual|hands-on)(?: verification| acceptance(?: testing)?| checks?| testing| qa| review)${String.raw`(?: ?\(.*\))?`}$`,
    ).test(text)
  )
    return 'manual';
  // `Success Criteria`, also with a suffix that names no kind (`Success Criteria (Phase 2A)`, `Success Criteria
  // Phase 1 ✅ COMPLETE`): undivided.
  const criteria =
    /^(?:success|acceptance|completion|verification|exit) criteria(?: ?\((automated|automatic|manual)\))?(?:$|[\s:(—–-](?!.*\b(?:automated|automatic|manual)\b))/.exec(
      text,
    );
  if (criteria) return criteria[1] === undefined ? 'unknown' : criteria[1] === 'manual' ? 'manual' : 'automated';
  if (/^(?:acceptance|acceptance checks?|definition of done|done when|exit criteria)$/.test(text)) return 'unknown';
  // A gate (`### Phase Gate`, `Quality Gate`) is what the phase must pass before the next: a verification heading
  // that names no kind, so its items are judged one by one (a command automated, anything else a human's).
  if (
    /^(?:final )?verification(?: steps| checks?)?$|^(?:phase |quality |exit )?gate$|^manual testing steps$/.test(text)
  )
    return text.startsWith('manual') ? 'manual' : 'unknown-verify';
  // `CI`, `CI only`, `CI checks (GitHub Actions)`: not any heading that starts with CI (`CI/CD Troubleshooting`).
  if (
    /^ci(?:[- ]only)?(?: (?:checks?|verification|tests?|gates?|runs?))?(?: ?\(.*\))?$/.test(text) ||
    /^(?:tests?|checks?|commands?) to run\b/.test(text)
  )
    return 'automated';
  return null;
}
