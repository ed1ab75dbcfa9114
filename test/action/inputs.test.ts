// The action's inputs as the runner hands them over (INPUT_<NAME> variables, named as @actions/core names them):
// the defaults when action.yml passes empty strings, YAML 1.2's boolean spellings, and clear refusals.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { getInput, InputError, parseInputs } from '../../src/action/inputs.js';

const env = (inputs: Record<string, string>): NodeJS.ProcessEnv =>
  Object.fromEntries(Object.entries(inputs).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, v]));

describe('action inputs', () => {
  it('defaults: github format, fail on errors, comment on, no SARIF, no preset or range (config and event decide)', () => {
    const defaults = { preset: undefined, format: 'github', failOn: 'error', comment: true, token: '' };
    expect(parseInputs({})).toEqual(defaults);
    // What action.yml passes for inputs a workflow leaves out: empty strings.
    expect(
      parseInputs(env({ preset: '', range: '', format: '', 'fail-on': '', comment: '', sarif: '', token: '' })),
    ).toEqual(defaults);
  });

  it('reads every input, trimmed, under the name @actions/core gives it (INPUT_FAIL-ON keeps its hyphen)', () => {
    const vars = env({
      preset: ' strict ',
      range: 'abc..def',
      format: 'markdown',
      'fail-on': 'never',
      comment: 'false',
      sarif: 'out/vw.sarif',
      token: 'ghs_x',
    });
    expect(Object.keys(vars)).toContain('INPUT_FAIL-ON');
    expect(parseInputs(vars)).toEqual({
      preset: 'strict',
      range: 'abc..def',
      format: 'markdown',
      failOn: 'never',
      comment: false,
      sarif: 'out/vw.sarif',
      token: 'ghs_x',
    });
    expect(getInput({ INPUT_MY_INPUT: 'x' }, 'my input')).toBe('x');
  });

  it.each([
    ['true', true],
    ['True', true],
    ['TRUE', true],
    ['false', false],
    ['False', false],
    ['FALSE', false],
  ])('comment: %s is %s', (value, expected) => {
    expect(parseInputs(env({ comment: value })).comment).toBe(expected);
  });

  it.each([
    [{ 'fail-on': 'maybe' }, 'input "fail-on" must be one of error, warning, never (got "maybe")'],
    [{ comment: 'yes' }, 'input "comment" must be a boolean: true | True | TRUE | false | False | FALSE (got "yes")'],
    [{ comment: '1' }, 'input "comment" must be a boolean: true | True | TRUE | false | False | FALSE (got "1")'],
    [{ format: 'html' }, 'input "format" must be one of stylish, json, sarif, github, markdown (got "html")'],
    [{ preset: 'lenient' }, 'input "preset" must be one of recommended, strict (got "lenient")'],
  ])('refuses %j', (inputs, message) => {
    expect(() => parseInputs(env(inputs))).toThrow(InputError);
    expect(() => parseInputs(env(inputs))).toThrow(message);
  });
});

describe('action.yml and the entry point agree', () => {
  const action = parse(readFileSync(new URL('../../action.yml', import.meta.url), 'utf8')) as {
    inputs: Record<string, { default: string }>;
    outputs: Record<string, { value: string }>;
    runs: { using: string; steps: { id?: string; env?: Record<string, string>; run?: string }[] };
  };
  const step = action.runs.steps.find((s) => s.id === 'validate')!;

  it('passes every declared input to the entry point under the name @actions/core reads', () => {
    expect(action.runs.using).toBe('composite');
    expect(Object.keys(action.inputs).sort()).toEqual([
      'comment',
      'fail-on',
      'format',
      'preset',
      'range',
      'sarif',
      'token',
      'verify',
    ]);
    expect(step.env).toEqual(
      Object.fromEntries(
        Object.keys(action.inputs).map((name) => [`INPUT_${name.toUpperCase()}`, `\${{ inputs.${name} }}`]),
      ),
    );
    expect(step.run).toBe('node "$GITHUB_ACTION_PATH/dist/action/main.js"');
    expect(action.outputs.sarif!.value).toBe('${{ steps.validate.outputs.sarif }}');
  });

  it("declares defaults that read as the entry point's own", () => {
    const defaults = Object.fromEntries(
      Object.entries(action.inputs).map(([name, input]) => [name, name === 'token' ? '' : String(input.default)]),
    );
    expect(parseInputs(env(defaults))).toEqual(parseInputs({}));
  });
});
