// The README's "Use it with" code is the example files that the packed suite compiles as ESM and as CommonJS.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const folder = join(root, 'examples', 'use-it-with');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const snippets = readdirSync(folder).filter((name) => name.endsWith('.mts'));

describe('README "Use it with"', () => {
  it('has the three snippets', () => {
    expect(snippets.sort()).toEqual(['ai-sdk.mts', 'fake-host.mts', 'langchain.mts']);
  });

  it.each(snippets)('shows examples/use-it-with/%s verbatim, without top-level await', (name) => {
    const code = readFileSync(join(folder, name), 'utf8').trimEnd();
    expect(readme).toContain('```ts\n' + code + '\n```');
    const topLevel = code.split('\n').filter((line) => /^(await |const .*= await |for await)/.test(line));
    expect(topLevel).toEqual([]);
  });
});
