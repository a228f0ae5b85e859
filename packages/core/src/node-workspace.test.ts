import {
  mkdtempSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
  lstatSync,
  readdirSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createNodeWorkspace } from './node-workspace.js';
import { resolveWorkspacePath } from './workspace-path.js';

const base = mkdtempSync(join(tmpdir(), 'toolhost-ws-'));
const root = join(base, 'repo');
const outside = join(base, 'outside');
mkdirSync(root);
mkdirSync(outside);
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('createNodeWorkspace', () => {
  it('writes atomically, keeps the mode and leaves no temp file', async () => {
    const ws = createNodeWorkspace(root);
    writeFileSync(join(root, 'run.sh'), 'echo 1\n', { mode: 0o755 });
    await ws.writeFile('run.sh', new TextEncoder().encode('echo 2\n'));
    expect(readFileSync(join(root, 'run.sh'), 'utf8')).toBe('echo 2\n');
    expect(statSync(join(root, 'run.sh')).mode & 0o777).toBe(0o755);
    await ws.writeFile('a/b/c.txt', new TextEncoder().encode('c'));
    expect(readFileSync(join(root, 'a/b/c.txt'), 'utf8')).toBe('c');
    expect(readdirSync(join(root, 'a/b'))).toEqual(['c.txt']);
  });

  it('writes a file given as pieces byte for byte, more pieces than one gathered write takes, flushed or not', async () => {
    const ws = createNodeWorkspace(root);
    // 3000 pieces (over IOV_MAX, 1024) of 0 to 6 bytes, empty ones included, every byte value present.
    const pieces = Array.from({ length: 3000 }, (_, index) => Uint8Array.from({ length: index % 7 }, (_, at) => (index * 7 + at) % 256));
    const expected = Buffer.concat(pieces);
    for (const durable of [false, true]) {
      await ws.writeFile(`pieces/${durable ? 'durable' : 'plain'}.bin`, pieces, { durable });
      expect(readFileSync(join(root, `pieces/${durable ? 'durable' : 'plain'}.bin`)).equals(expected)).toBe(true);
    }
    await ws.writeFile('pieces/empty.bin', [new Uint8Array(0), new Uint8Array(0)]);
    expect(readFileSync(join(root, 'pieces/empty.bin')).length).toBe(0);
    expect(readdirSync(join(root, 'pieces')).sort()).toEqual(['durable.bin', 'empty.bin', 'plain.bin']);
  });

  it('writes durably with the folder flush deferred, then flushes each folder holding a path once', async () => {
    const ws = createNodeWorkspace(root);
    const bytes = new TextEncoder().encode('flushed\n');
    await ws.writeFile('sync/one.txt', bytes, { durable: true, tempName: '.t1.toolhost.tmp', deferFolderSync: true });
    await ws.writeFile('sync/deep/two.txt', bytes, { durable: true, deferFolderSync: true });
    symlinkSync('deep/two.txt', join(root, 'sync', 'link.txt'));
    await ws.syncFolders!(['sync/one.txt', 'sync/deep/two.txt', 'sync/link.txt', 'sync/gone.txt', 'sync', 'top.txt']);
    expect(readFileSync(join(root, 'sync/one.txt'), 'utf8')).toBe('flushed\n');
    expect(readdirSync(join(root, 'sync')).sort()).toEqual(['deep', 'link.txt', 'one.txt']);
    await expect(ws.syncFolders!(['missing-folder/file.txt'])).rejects.toThrow(/ENOENT/);
  });

  it('writes through a symlink to its target and keeps the link', async () => {
    const ws = createNodeWorkspace(root);
    writeFileSync(join(root, 'target.txt'), 'old');
    symlinkSync('target.txt', join(root, 'link.txt'));
    await ws.writeFile('link.txt', new TextEncoder().encode('new'));
    expect(lstatSync(join(root, 'link.txt')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(root, 'target.txt'), 'utf8')).toBe('new');
  });

  it('reads a link target as stored and re-creates a removed link', async () => {
    const ws = createNodeWorkspace(root);
    mkdirSync(join(root, 'links'));
    writeFileSync(join(root, 'links/t.txt'), 'kept');
    symlinkSync('t.txt', join(root, 'links/l.txt'));
    expect(await ws.readLink!('links/l.txt')).toBe('t.txt');
    unlinkSync(join(root, 'links/l.txt'));
    await ws.createSymlink!('links/l.txt', 't.txt');
    expect(readlinkSync(join(root, 'links/l.txt'))).toBe('t.txt');
    expect(readFileSync(join(root, 'links/l.txt'), 'utf8')).toBe('kept');
    await expect(ws.createSymlink!('links/t.txt', 'x')).rejects.toMatchObject({ code: 'EEXIST' });
  });

  it('reports symlinks that lead outside and lets resolveWorkspacePath refuse them', async () => {
    const ws = createNodeWorkspace(root);
    writeFileSync(join(outside, 'secret.txt'), 'secret');
    symlinkSync(outside, join(root, 'out'));
    expect(await ws.realpath('out')).toEqual({ inside: false, path: outside });
    const check = await resolveWorkspacePath(ws, 'out/secret.txt');
    expect(check.ok).toBe(false);
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('secret');
  });
});
