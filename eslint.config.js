// Lint rules that catch bugs (lost promises, unused values, unchecked `any`); layout is prettier's job, not eslint's.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const typeScriptFiles = ['**/*.{ts,mts,cts}'];
/** What tsconfig.check.json type-checks: one program serves every file, as in `tsc -b`. */
const typedFiles = ['packages/*/src/**/*.ts', 'test/**/*.ts', 'examples/**/*.ts', 'bench/**/*.ts'];
/** `_name` marks a binding kept for its position (a callback's signature, a destructured rest). */
const unusedOptions = { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true };

export default defineConfig(
  {
    ignores: [
      '**/node_modules/',
      '**/dist/',
      '**/.tsbuild/',
      '.packed/',
      'coverage/',
      'docs/',
      '.bench-tmp/',
      'packages/*/temp/',
      // Sample sources in several languages that code_search indexes: test data, not project code.
      'packages/code-search/src/__fixtures__/polyglot/',
    ],
  },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  js.configs.recommended,
  {
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: { globals: globals.node },
    rules: { 'no-unused-vars': ['error', unusedOptions] },
  },
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs' } },
  // Config files and the packed consumer (type-checked against the installed tarballs) are outside tsconfig.check.json,
  // so they get the rules that need no types.
  { files: typeScriptFiles, extends: [tseslint.configs.recommended] },
  { files: typeScriptFiles, rules: { '@typescript-eslint/no-unused-vars': ['error', unusedOptions] } },
  {
    files: typedFiles,
    extends: [tseslint.configs.recommendedTypeCheckedOnly],
    languageOptions: { parserOptions: { project: './tsconfig.check.json', tsconfigRootDir: import.meta.dirname } },
    rules: {
      // Beyond the recommended set: a promise returned without await inside try skips its catch and finally.
      '@typescript-eslint/return-await': ['error', 'error-handling-correctness-only'],
      // A switch over a union with no default misses the member added later.
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      // An async function without await is how a synchronous body implements a promise-returning interface (the memory
      // workspace, fakes): a throw becomes a rejection, as callers expect.
      '@typescript-eslint/require-await': 'off',
      // Index reads carry `!` as though noUncheckedIndexedAccess were on, a deliberate marker this rule would strip.
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
    },
  },
  {
    files: ['**/*.test.ts'],
    // Vitest's asymmetric matchers (expect.any, expect.stringContaining) are typed `any` and sit inside expected values.
    rules: { '@typescript-eslint/no-unsafe-assignment': 'off' },
  },
  // The CommonJS consumer of the packed packages tests require() on purpose.
  { files: ['**/*.cts'], rules: { '@typescript-eslint/no-require-imports': 'off' } },
);
