// Lint rules that catch bugs (lost promises, unused values, unchecked `any`); layout is prettier's job, not eslint's.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const typeScriptFiles = ['**/*.{ts,mts,cts}'];
/** What tsconfig.check.json type-checks: one program serves every file, as in `tsc -b`. */
const typedFiles = ['packages/*/src/**/*.ts', 'test/**/*.ts', 'examples/**/*.ts', 'bench/**/*.ts'];
/**
 * The layers of ARCHITECTURE.md, enforced: the toolhost packages each package's shipped source may import (besides its
 * own name). Adapters see the facade only; engines and the remote kit see core; core sees nothing of ours. Tests and
 * fixtures are outside the rule (they may build a fake host with `@toolhost/testing`).
 */
const ENGINES = ['@toolhost/exec', '@toolhost/patch', '@toolhost/catalog', '@toolhost/code-search'];
const PACKAGE_LAYERS = {
  core: [],
  remote: ['@toolhost/core'],
  exec: ['@toolhost/core'],
  patch: ['@toolhost/core'],
  catalog: ['@toolhost/core'],
  'code-search': ['@toolhost/core'],
  docker: ['@toolhost/core', '@toolhost/remote'],
  ssh: ['@toolhost/core', '@toolhost/remote'],
  profiles: ['@toolhost/core'],
  runtime: ['@toolhost/core', '@toolhost/profiles', ...ENGINES],
  toolhost: ['@toolhost/core', '@toolhost/profiles', '@toolhost/runtime', ...ENGINES],
  testing: ['@toolhost/core', '@toolhost/profiles', '@toolhost/runtime', ...ENGINES, 'toolhost'],
  'ai-sdk': ['toolhost'],
  langchain: ['toolhost'],
  openai: ['toolhost'],
  anthropic: ['toolhost'],
  // The Agents SDK's editor and shell are the OpenAI adapter's; the sandbox client builds on them.
  'openai-agents': ['toolhost', '@toolhost/openai'],
  // The MCP command line serves a Docker or SSH environment when asked to, loading the package on demand.
  mcp: ['toolhost', '@toolhost/docker', '@toolhost/ssh'],
};
/** Escapes what is special in a regular expression with the `u` flag ESLint compiles it with. */
const escapeRegex = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The no-restricted-imports options that refuse every toolhost package but `allowed` (and their subpaths). */
function layerRule(folder, allowed) {
  const own = folder === 'toolhost' ? 'toolhost' : `@toolhost/${folder}`;
  const names = [own, ...allowed].map(escapeRegex).join('|');
  return {
    patterns: [
      {
        regex: `^(?!(?:${names})(?:/|$))(?:toolhost(?:/|$)|@toolhost/)`,
        message: `${own} may import only ${allowed.join(', ') || 'nothing of toolhost'}: the layers in ARCHITECTURE.md.`,
      },
    ],
  };
}

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
  ...Object.entries(PACKAGE_LAYERS).map(([folder, allowed]) => ({
    files: [`packages/${folder}/src/**/*.ts`],
    ignores: ['**/*.test.ts', '**/__fixtures__/**', '**/__pins__/**'],
    rules: { 'no-restricted-imports': ['error', layerRule(folder, allowed)] },
  })),
  // The CommonJS consumer of the packed packages tests require() on purpose.
  { files: ['**/*.cts'], rules: { '@typescript-eslint/no-require-imports': 'off' } },
);
