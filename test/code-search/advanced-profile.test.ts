import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gptTokenizer } from '@toolhost/core';
import { createToolHost } from 'toolhost';
import { createFakeToolHost } from '@toolhost/testing';

const FILES: Record<string, string> = {
  'src/profile.ts':
    '// ToolProfile lives here\nexport type ToolProfile = "default" | "advanced";\nexport const current: ToolProfile = "default";\n',
  'docs/guide.md': 'Pick a ToolProfile.\n',
};

describe('code_search through the hosts (advanced profile)', () => {
  let root = '';
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'code-search-host-'));
    for (const [path, content] of Object.entries(FILES)) {
      mkdirSync(join(root, path, '..'), { recursive: true });
      writeFileSync(join(root, path), content);
    }
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const expected = ['definition src/profile.ts:2:13', 'usage src/profile.ts:3:23', 'text docs/guide.md:1:8', 'text src/profile.ts:1:4'];
  const brief = (data: Record<string, unknown> | undefined) =>
    (data?.results as Array<{ result_type: string; path: string; line: number; column: number }>).map(
      (hit) => `${hit.result_type} ${hit.path}:${hit.line}:${hit.column}`,
    );

  it('gives the same results on the real host and the fake host', async () => {
    const host = createToolHost({ workspace: root, profile: 'advanced' });
    const fake = createFakeToolHost({ profile: 'advanced', files: FILES });
    try {
      expect(host.tools.map((tool) => tool.name)).toContain('code_search');
      const real = await host.call('code_search', { query: 'ToolProfile' });
      const inMemory = await fake.call('code_search', { query: 'ToolProfile' });
      expect(real.ok).toBe(true);
      expect(brief(real.data)).toEqual(expected);
      expect(brief(inMemory.data)).toEqual(expected);
      expect(real.output).toBe(inMemory.output);
      const path = await host.call('code_search', { query: 'profile', result_types: ['path'] });
      expect(brief(path.data)).toEqual(['path src/profile.ts:1:1']);
    } finally {
      await host.close();
      await fake.close();
    }
  });

  it('validates arguments before searching', async () => {
    const host = createToolHost({ workspace: root, profile: 'advanced' });
    try {
      const extra = await host.call('code_search', { query: 'x', regex: true });
      expect(extra.error?.code).toBe('invalid_arguments');
      const outside = await host.call('code_search', { query: 'x', path: '/etc' });
      expect(outside.error?.code).toBe('outside_workspace');
      const budget = await host.call('code_search', { query: 'ToolProfile', max_output_tokens: 100 });
      expect(budget.ok).toBe(true);
      expect(gptTokenizer.count(budget.output)).toBeLessThanOrEqual(100);
    } finally {
      await host.close();
    }
  });
});
