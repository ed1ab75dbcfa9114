// The soong-plans pack's rule in memory (the rule tester); soong-plans.test.ts keeps the working tree door.
import { ruleTester } from '../helpers/rule-tester.js';
import { soongPlans } from '../../src/packs/soong-plans/index.js';

const D = '.soong-agent/plans';

ruleTester(
  soongPlans.rules.find((r) => r.meta.id === 'soong-plans/file-name')!,
  {
    valid: [
      { files: { [`${D}/implement-auth-flow.md`]: '# x\n', [`${D}/fix_bug-2.md`]: '' } },
      { name: 'off', files: { [`${D}/Bad Name.txt`]: '' }, config: { packs: { 'soong-plans': false } } },
    ],
    invalid: [
      {
        files: { [`${D}/Implement-Auth.md`]: '' },
        errors: [
          {
            messageId: 'badName',
            file: `${D}/Implement-Auth.md`,
            line: null,
            message:
              'Plan file name "Implement-Auth.md" breaks the seed\'s name rule: characters (only a-z0-9-_ before ".md").',
          },
        ],
      },
      {
        name: 'several checks at once',
        files: { [`${D}/sub/.Draft.txt`]: '' },
        errors: [
          {
            messageId: 'badName',
            message:
              'Plan file name "sub/.Draft.txt" breaks the seed\'s name rule: "/" (no subfolders); hidden name; ".md" suffix; characters (only a-z0-9-_ before ".md").',
          },
        ],
      },
      {
        name: 'the length limit from config',
        files: { [`${D}/implement-auth-flow.md`]: '' },
        config: { packs: { 'soong-plans': { maxNameLength: 10 } } },
        errors: [
          {
            messageId: 'badName',
            message:
              'Plan file name "implement-auth-flow.md" breaks the seed\'s name rule: length (22 > 10 characters).',
          },
        ],
      },
    ],
  },
);
