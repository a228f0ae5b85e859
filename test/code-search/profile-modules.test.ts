import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const fixtures = fileURLToPath(new URL('./__fixtures__/', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** The module URLs a fresh process loads to build a host of `profile`, answer one call and close it. */
async function modulesLoadedBy(kind: 'real' | 'fake', profile: 'default' | 'advanced'): Promise<string[]> {
  const args = [
    '--conditions=@toolhost/source',
    '--import',
    'tsx',
    '--import',
    `${fixtures}module-log.mjs`,
    `${fixtures}host-modules.ts`,
    kind,
    profile,
  ];
  const { stdout } = await promisify(execFile)(process.execPath, args, { cwd: repoRoot, maxBuffer: 64 * 1024 * 1024 });
  return JSON.parse(stdout) as string[];
}

/** The modules of the code search package beyond its schema, and web-tree-sitter. */
const parserSide = (urls: string[]) =>
  urls.filter(
    (url) => (url.includes('/packages/code-search/') && !url.endsWith('/code-search-schema.ts')) || url.includes('web-tree-sitter'),
  );

describe('which profile loads code_search', () => {
  for (const kind of ['real', 'fake'] as const) {
    it(`the default profile of the ${kind} host loads no code search module but its schema`, async () => {
      const urls = await modulesLoadedBy(kind, 'default');
      expect(urls.some((url) => url.endsWith('/packages/runtime/src/tool-runtime.ts'))).toBe(true);
      expect(parserSide(urls)).toEqual([]);
    });

    it(`the advanced profile of the ${kind} host loads the code search package and its parser setup`, async () => {
      const urls = await modulesLoadedBy(kind, 'advanced');
      expect(parserSide(urls).some((url) => url.endsWith('/packages/code-search/src/grammar-loader.ts'))).toBe(true);
    });
  }
});
