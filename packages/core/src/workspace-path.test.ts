import { describe, expect, it } from 'vitest';
import { createMemoryWorkspace } from './memory-workspace.js';
import { normalizeWorkspacePath, resolveWorkspacePath } from './workspace-path.js';

describe('normalizeWorkspacePath', () => {
  const root = '/work/repo';
  it.each([
    ['a/b.txt', 'a/b.txt'],
    ['./a//b.txt', 'a/b.txt'],
    ['a/../b.txt', 'b.txt'],
    ['/work/repo/src/x.ts', 'src/x.ts'],
    ['/work/repo', ''],
    ['.', ''],
  ])('accepts %s as %s', (input, relative) => {
    expect(normalizeWorkspacePath(root, input)).toEqual({ ok: true, relative, absolute: relative ? `${root}/${relative}` : root });
  });

  it.each([
    '../x',
    'a/../../x',
    '/etc/passwd',
    '/work/repo2/x',
    '~/x',
    'C:\\x',
    'C:/x',
    '\\\\server\\share',
    '//?/C:/x',
    'a\u0000b',
    'a\nb',
    '',
    '..\\..\\x',
  ])('rejects %j', (input) => {
    expect(normalizeWorkspacePath(root, input).ok).toBe(false);
  });
});

describe('resolveWorkspacePath', () => {
  it('rejects a path through a symlink that leads outside and accepts one that stays inside', async () => {
    const workspace = createMemoryWorkspace({ 'src/a.ts': 'a' });
    workspace.symlink('out', '/etc');
    workspace.symlink('in', 'src');
    expect((await resolveWorkspacePath(workspace, 'out/passwd')).ok).toBe(false);
    expect(await resolveWorkspacePath(workspace, 'in/a.ts')).toEqual({ ok: true, relative: 'in/a.ts', absolute: '/workspace/in/a.ts' });
    expect((await resolveWorkspacePath(workspace, 'new/file.ts')).ok).toBe(true);
  });
});
