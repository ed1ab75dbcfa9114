// ESLint for the project's own code: the recommended sets of ESLint and typescript-eslint, without type information
// (typescript-eslint needs TypeScript's JavaScript API, which the native compiler that builds the project lacks; the
// `typescript` 6 devDependency exists only for this). Formatting is Prettier's, so no stylistic rule is on here.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['dist/', 'coverage/', 'bench/.repo/', 'node_modules/', 'thoughts/', 'docs/', 'templates/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // An unused argument often names a position in a callback's signature; a leading underscore says so.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
);
