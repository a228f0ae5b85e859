import { createMemoryWorkspace } from '@toolhost/core';
import { describe, expect, it } from 'vitest';
import { resolveFileTypes } from './language-table.js';
import { resolveSearchScope } from './search-scope.js';

describe('resolveSearchScope', () => {
  const workspace = createMemoryWorkspace({ 'src/a.ts': 'a', 'README.md': 'r' });

  it('searches everything without path or file_types, and keeps to a folder or file and the extensions given', async () => {
    expect(await resolveSearchScope(workspace, {})).toEqual({ ok: true, start: '', extensions: undefined });
    expect(await resolveSearchScope(workspace, { path: './src/', file_types: [] })).toEqual({
      ok: true,
      start: 'src',
      extensions: undefined,
    });
    const scope = await resolveSearchScope(workspace, { path: 'README.md', file_types: ['.md'] });
    expect(scope.ok && scope.start).toBe('README.md');
    expect(scope.ok && [...(scope.extensions ?? [])]).toEqual([
      ...(resolveFileTypes(['.md']) as { extensions: ReadonlySet<string> }).extensions,
    ]);
  });

  it('answers a path outside the workspace, a missing path and an unknown file type with error results', async () => {
    const outside = await resolveSearchScope(workspace, { path: '../elsewhere' });
    expect(!outside.ok && outside.result.error?.code).toBe('outside_workspace');
    expect(!outside.ok && outside.result.output).toMatch(/\. Pass a path inside \/workspace\.$/);
    const missing = await resolveSearchScope(workspace, { path: 'lib' });
    expect(!missing.ok && missing.result.output).toBe(
      'Error [invalid_arguments]: path "lib" does not exist in the workspace; omit path or pass an existing file or folder.',
    );
    expect(!missing.ok && missing.result.error?.code).toBe('invalid_arguments');
    const unknown = await resolveSearchScope(workspace, { file_types: ['cobolx'] });
    const selection = resolveFileTypes(['cobolx']);
    expect(!unknown.ok && unknown.result.output).toBe(!selection.ok && `Error [invalid_arguments]: ${selection.message}`);
  });
});
