// The action's inputs, read as @actions/core reads them (the package is not a dependency: these few lines are all of
// it the action needs). A composite action gets no INPUT_* variables from the runner; action.yml passes each input
// under the name core would give it (`INPUT_FAIL-ON`), so the entry point also runs as a JavaScript action would.
import type { Preset } from '../config/config.js';
import { FORMATS, type Format } from '../report/names.js';

export const FAIL_ON = ['error', 'warning', 'never'] as const;
export type FailOn = (typeof FAIL_ON)[number];
const PRESETS: readonly Preset[] = ['recommended', 'strict'];

export interface ActionInputs {
  /** Unset: the config's preset. */
  preset?: Preset;
  /** `from..to` as given; unset: derived from the event (see event.ts). */
  range?: string;
  /** What the log shows; github turns findings into annotations. */
  format: Format;
  failOn: FailOn;
  comment: boolean;
  /** Where to write the SARIF report; unset: none is written. */
  sarif?: string;
  token: string;
  /** Also re-run the ticked automated items' commands over the range (`validate-workflow verify`); set only when on. */
  verify?: true;
}

/** A value the action cannot run with; the message names the input and what it accepts. */
export class InputError extends Error {}

/** core.getInput: `INPUT_<NAME>` with spaces as underscores, upper-cased, trimmed; absent is the empty string. */
export function getInput(env: NodeJS.ProcessEnv, name: string): string {
  return (env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? '').trim();
}

/**
 * core.getBooleanInput: only YAML 1.2 core schema spellings are booleans (`yes`, `1` and `on` are not). Empty means
 * the default here, since a test or a local run may leave out what action.yml always passes.
 */
export function getBooleanInput(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const value = getInput(env, name);
  if (value === '') return fallback;
  if (['true', 'True', 'TRUE'].includes(value)) return true;
  if (['false', 'False', 'FALSE'].includes(value)) return false;
  throw new InputError(
    `input "${name}" must be a boolean: true | True | TRUE | false | False | FALSE (got "${value}")`,
  );
}

function choice<T extends string>(env: NodeJS.ProcessEnv, name: string, allowed: readonly T[]): T | undefined {
  const value = getInput(env, name);
  if (value === '') return undefined;
  if (!(allowed as readonly string[]).includes(value))
    throw new InputError(`input "${name}" must be one of ${allowed.join(', ')} (got "${value}")`);
  return value as T;
}

export function parseInputs(env: NodeJS.ProcessEnv): ActionInputs {
  const range = getInput(env, 'range');
  const sarif = getInput(env, 'sarif');
  return {
    preset: choice(env, 'preset', PRESETS),
    ...(range ? { range } : {}),
    format: choice(env, 'format', FORMATS) ?? 'github',
    failOn: choice(env, 'fail-on', FAIL_ON) ?? 'error',
    comment: getBooleanInput(env, 'comment', true),
    ...(sarif ? { sarif } : {}),
    token: getInput(env, 'token'),
    ...(getBooleanInput(env, 'verify', false) ? { verify: true as const } : {}),
  };
}
