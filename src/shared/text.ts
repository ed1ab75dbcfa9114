// Small wording helpers every report and message shares.

/** `1 file`, `2 files`; an irregular plural is passed in. */
export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}

/** The verb that agrees with a count: `is` for one, `are` for any other number (`1 item is`, `2 items are`). */
export function isAre(n: number): 'is' | 'are' {
  return n === 1 ? 'is' : 'are';
}

/**
 * `Add Login (v2)` -> `add-login-v2`: the description part of a file name (`new` names files with it, and `--fix`
 * renames handoffs with it, so both give one description the same name).
 */
export function kebab(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A value as one canonical text (object keys sorted, so two readings of the same words compare equal): the identity
 * of an event across a merge's parents, and of a handoff's fields and resolution across versions.
 */
export function canonicalText(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalText).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalText((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

/** Edit distance (insertions, deletions, substitutions), for "did you mean". */
export function levenshtein(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++)
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length]!;
}

/** The closest candidate within an edit distance of 2, or one the word starts (or is started by); null if none. */
export function closest(word: string, candidates: readonly string[]): string | null {
  let best: { name: string; score: number } | null = null;
  for (const name of candidates) {
    const distance = levenshtein(word, name);
    const prefix = word.length >= 2 && (name.startsWith(word) || word.startsWith(name));
    if (distance > 2 && !prefix) continue;
    // A prefix counts as close as a distance of 2 would: `--max` finds `--max-warnings`, a typo still wins.
    const score = Math.min(distance, prefix ? 2 : distance);
    if (!best || score < best.score) best = { name, score };
  }
  return best?.name ?? null;
}

/**
 * A text quoted from a file, on one line: its words, not its line breaks (an item or sentence wrapped over two source
 * lines). A finding is one line in every report, and a break would split it in stylish output and GitHub annotations.
 */
export function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ');
}
