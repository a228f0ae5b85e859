import { describe, expect, it } from 'vitest';
import { createMemoryWorkspace } from './memory-workspace.js';

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe('createMemoryWorkspace', () => {
  it('reads, writes, lists and removes files with implicit folders', async () => {
    const ws = createMemoryWorkspace({ 'src/a.ts': 'a', 'src/lib/b.ts': { content: 'b', mode: 0o755 }, 'README.md': '# x' });
    expect(text(await ws.readFile('src/a.ts'))).toBe('a');
    expect(await ws.stat('src/lib/b.ts')).toMatchObject({ kind: 'file', size: 1, mode: 0o755 });
    expect(await ws.stat('src')).toMatchObject({ kind: 'directory' });
    expect(await ws.readdir('')).toEqual([
      { name: 'README.md', kind: 'file' },
      { name: 'src', kind: 'directory' },
    ]);
    await ws.writeFile('new/deep/c.txt', new TextEncoder().encode('c'));
    expect(await ws.readdir('new')).toEqual([{ name: 'deep', kind: 'directory' }]);
    await ws.remove('src/a.ts');
    expect(await ws.stat('src/a.ts')).toBeUndefined();
    await expect(ws.readFile('src/a.ts')).rejects.toMatchObject({ code: 'ENOENT' });
    expect(ws.snapshot()).toEqual({ 'README.md': '# x', 'new/deep/c.txt': 'c', 'src/lib/b.ts': 'b' });
  });

  it('writes a file given as pieces as their bytes in order, and keeps no view of them', async () => {
    const ws = createMemoryWorkspace({});
    const first = new TextEncoder().encode('one\n');
    await ws.writeFile('joined.txt', [first, new Uint8Array(0), new TextEncoder().encode('two\n')]);
    await ws.writeFile('single.txt', [first]);
    first.set(new TextEncoder().encode('ONE'));
    expect(ws.snapshot()).toEqual({ 'joined.txt': 'one\ntwo\n', 'single.txt': 'one\n' });
  });

  it('keeps a file mode across writes unless one is given', async () => {
    const ws = createMemoryWorkspace({ 'run.sh': { content: 'x', mode: 0o755 } });
    await ws.writeFile('run.sh', new TextEncoder().encode('y'));
    expect((await ws.stat('run.sh'))?.mode).toBe(0o755);
    await ws.writeFile('run.sh', new TextEncoder().encode('z'), { mode: 0o600 });
    expect((await ws.stat('run.sh'))?.mode).toBe(0o600);
  });

  it('follows symlinks inside, reports those leading outside, and writes through links', async () => {
    const ws = createMemoryWorkspace({ 'real/target.txt': 'old' });
    ws.symlink('link.txt', 'real/target.txt');
    ws.symlink('dirlink', 'real');
    ws.symlink('escape', '/etc');
    ws.symlink('up', '../outside');
    expect(await ws.lstat('link.txt')).toMatchObject({ kind: 'symlink' });
    expect(await ws.stat('link.txt')).toMatchObject({ kind: 'file' });
    expect(await ws.realpath('dirlink/target.txt')).toEqual({ inside: true, path: 'real/target.txt' });
    expect(await ws.realpath('escape')).toEqual({ inside: false, path: '/etc' });
    expect((await ws.realpath('up'))?.inside).toBe(false);
    await ws.writeFile('link.txt', new TextEncoder().encode('new'));
    expect(await ws.lstat('link.txt')).toMatchObject({ kind: 'symlink' });
    expect(text(await ws.readFile('real/target.txt'))).toBe('new');
  });

  it('reads a link target as stored and re-creates a removed link', async () => {
    const ws = createMemoryWorkspace({ 'real/target.txt': 'old' });
    ws.symlink('real/link.txt', 'target.txt');
    ws.symlink('dirlink', 'real');
    expect(await ws.readLink!('dirlink/link.txt')).toBe('target.txt');
    await expect(ws.readLink!('real/target.txt')).rejects.toMatchObject({ code: 'EINVAL' });
    await ws.remove('real/link.txt');
    expect(await ws.lstat('real/link.txt')).toBeUndefined();
    await ws.createSymlink!('dirlink/link.txt', 'target.txt');
    expect(await ws.lstat('real/link.txt')).toMatchObject({ kind: 'symlink' });
    expect(text(await ws.readFile('real/link.txt'))).toBe('old');
    await expect(ws.createSymlink!('real/target.txt', 'x')).rejects.toMatchObject({ code: 'EEXIST' });
  });
});
