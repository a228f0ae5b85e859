import { describe, expect, it } from 'vitest';
import { createMemoryWorkspace } from './memory-workspace.js';
import type { Workspace } from './workspace.js';
import { inspectWorkspacePath, normalizeWorkspacePath, resolveWorkspacePath } from './workspace-path.js';

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

describe('inspectWorkspacePath', () => {
  /** The workspace with every lstat counted and held until all asked in one go have been asked. */
  function watched(workspace: Workspace): { workspace: Workspace; waves: string[][] } {
    const waves: string[][] = [];
    let wave: string[] | undefined;
    return {
      waves,
      workspace: {
        ...workspace,
        lstat: async (path) => {
          if (!wave) {
            wave = [];
            waves.push(wave);
            queueMicrotask(() => (wave = undefined));
          }
          wave.push(path);
          return workspace.lstat(path);
        },
      },
    };
  }

  it('looks at every component in one go, and gives what is at the path itself', async () => {
    const memory = createMemoryWorkspace({ 'src/deep/a.ts': 'a' });
    const { workspace, waves } = watched(memory);
    const inspected = await inspectWorkspacePath(workspace, 'src/deep/a.ts');
    expect(inspected).toMatchObject({ ok: true, relative: 'src/deep/a.ts', own: { kind: 'file', size: 1 } });
    expect(waves).toEqual([['src', 'src/deep', 'src/deep/a.ts']]);
    expect(await inspectWorkspacePath(workspace, 'src/new/b.ts')).toMatchObject({ ok: true, own: undefined });
    // The root has no component: the check looks at nothing, the inspection at the root itself.
    waves.length = 0;
    expect(await resolveWorkspacePath(workspace, '.')).toEqual({ ok: true, relative: '', absolute: '/workspace' });
    expect(waves).toEqual([]);
    expect(await inspectWorkspacePath(workspace, '.')).toMatchObject({ ok: true, relative: '', own: { kind: 'directory' } });
    expect(waves).toEqual([['']]);
  });

  it('fails as a check one component at a time would: the first symlink that leads out or dangles, in order', async () => {
    const workspace = createMemoryWorkspace({ 'src/a.ts': 'a' });
    workspace.symlink('src/out', '/etc');
    workspace.symlink('src/gone', 'src/nothing');
    workspace.symlink('in', 'src');
    expect(await inspectWorkspacePath(workspace, 'in/out/passwd')).toEqual({
      ok: false,
      message: 'path "in/out/passwd" goes through symlink in/out that leads outside the workspace',
    });
    expect(await inspectWorkspacePath(workspace, 'in/gone/x')).toEqual({
      ok: false,
      message: 'path "in/gone/x" goes through a dangling symlink in/gone',
    });
    expect(await inspectWorkspacePath(workspace, 'in/a.ts')).toMatchObject({ ok: true, own: { kind: 'file' } });
  });

  it('asks a component whose answer failed again when the check gets to it, and not past a missing one', async () => {
    const memory = createMemoryWorkspace({ 'a.txt': 'a' });
    let failures = 0;
    const failing: Workspace = {
      ...memory,
      lstat: async (path) => {
        if (path.endsWith('a.txt/x')) {
          failures++;
          throw Object.assign(new Error(`ENOTDIR: '${path}'`), { code: 'ENOTDIR' });
        }
        return memory.lstat(path);
      },
    };
    await expect(inspectWorkspacePath(failing, 'a.txt/x')).rejects.toThrow(/ENOTDIR/);
    expect(failures).toBe(2);
    failures = 0;
    // Asked with the others, failed, never asked again: the check stops at the missing folder.
    expect(await inspectWorkspacePath(failing, 'missing/a.txt/x')).toMatchObject({ ok: true, own: undefined });
    expect(failures).toBe(1);
  });
});
