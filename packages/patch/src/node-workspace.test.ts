import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { createNodeWorkspace } from '@toolhost/core/node';
import type { Workspace } from '@toolhost/core';
import { applyPatch } from './apply-patch.js';

const patch = (...lines: string[]) => ['*** Begin Patch', ...lines, '*** End Patch'].join('\n');

describe('apply_patch on a real folder', () => {
  let base: string;
  let root: string;
  let outside: string;
  let workspace: Workspace;

  beforeEach(() => {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'toolhost-patch-')));
    root = join(base, 'ws');
    outside = join(base, 'outside');
    mkdirSync(root);
    mkdirSync(outside);
    workspace = createNodeWorkspace(root);
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  const read = (path: string) => readFileSync(join(root, path), 'utf8');

  it('adds, updates, moves and deletes files and leaves no temp files', async () => {
    writeFileSync(join(root, 'a.txt'), 'one\ntwo\n');
    writeFileSync(join(root, 'm.txt'), 'move me\n');
    writeFileSync(join(root, 'gone.txt'), 'bye\n');
    const result = await applyPatch(
      workspace,
      patch(
        '*** Add File: dir/new.txt',
        '+hi',
        '*** Update File: a.txt',
        '-two',
        '+2',
        '*** Update File: m.txt',
        '*** Move to: sub/m2.txt',
        '-move me',
        '+moved',
        '*** Delete File: gone.txt',
      ),
    );
    expect(result.output).toBe('Success. Updated the following files:\nA dir/new.txt\nM a.txt\nM sub/m2.txt\nD gone.txt\n');
    expect(read('dir/new.txt')).toBe('hi\n');
    expect(read('a.txt')).toBe('one\n2\n');
    expect(read('sub/m2.txt')).toBe('moved\n');
    expect(readdirSync(root).sort()).toEqual(['a.txt', 'dir', 'sub']);
  });

  it('keeps mode bits, CRLF and the BOM', async () => {
    writeFileSync(join(root, 'run.sh'), Buffer.from('\uFEFFecho 1\r\necho 2\r\n', 'utf8'));
    chmodSync(join(root, 'run.sh'), 0o755);
    const result = await applyPatch(workspace, patch('*** Update File: run.sh', ' echo 1', '-echo 2', '+echo two', '+echo three'));
    expect(result.ok).toBe(true);
    expect(readFileSync(join(root, 'run.sh'))).toEqual(Buffer.from('\uFEFFecho 1\r\necho two\r\necho three\r\n', 'utf8'));
    expect(statSync(join(root, 'run.sh')).mode & 0o777).toBe(0o755);
  });

  it('writes an updated file as pieces: the old bytes of the kept ranges and the new lines, exact on disk', async () => {
    const kept = Array.from({ length: 2000 }, (_, index) => `línea ${index}\r\n`).join('');
    writeFileSync(join(root, 'big.txt'), Buffer.from(`\uFEFF${kept}middle\r\n${kept}end without newline`, 'utf8'));
    const written: unknown[] = [];
    const recording: Workspace = {
      ...workspace,
      writeFile: (path, data, options) => {
        written.push(data);
        return workspace.writeFile(path, data, options);
      },
    };
    const result = await applyPatch(recording, patch('*** Update File: big.txt', '@@', '-middle', '+centre', '+añadida'));
    expect(result.ok).toBe(true);
    expect(readFileSync(join(root, 'big.txt'))).toEqual(
      Buffer.from(`\uFEFF${kept}centre\r\nañadida\r\n${kept}end without newline`, 'utf8'),
    );
    const update = written.find(Array.isArray) as Uint8Array[] | undefined;
    expect(update?.map((piece) => piece.length)).toEqual([3, Buffer.byteLength(kept), 18, Buffer.byteLength(kept) + 19]);
  });

  it('keeps the mode of a moved file', async () => {
    writeFileSync(join(root, 'tool'), 'x\n');
    chmodSync(join(root, 'tool'), 0o700);
    await applyPatch(workspace, patch('*** Update File: tool', '*** Move to: bin/tool', '-x', '+y'));
    expect(statSync(join(root, 'bin/tool')).mode & 0o777).toBe(0o700);
  });

  it('refuses paths through symlinks that lead outside and writes nothing there', async () => {
    writeFileSync(join(outside, 'secret.txt'), 'secret\n');
    symlinkSync(outside, join(root, 'escape'));
    symlinkSync(join(outside, 'secret.txt'), join(root, 'secret-link.txt'));
    for (const text of [
      patch('*** Add File: escape/new.txt', '+x'),
      patch('*** Update File: escape/secret.txt', '-secret', '+owned'),
      patch('*** Update File: secret-link.txt', '-secret', '+owned'),
      patch('*** Delete File: escape/secret.txt'),
      patch(`*** Add File: ${outside}/abs.txt`, '+x'),
    ]) {
      const result = await applyPatch(workspace, text);
      expect(result.error?.code).toBe('outside_workspace');
    }
    expect(readdirSync(outside)).toEqual(['secret.txt']);
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('secret\n');
  });

  it('a folder swapped for a symlink to outside after the checks makes the write fail; nothing lands outside', async () => {
    mkdirSync(join(root, 'd'));
    writeFileSync(join(root, 'd/f.txt'), 'x\n');
    writeFileSync(join(outside, 'f.txt'), 'x\n');
    let swapped = false;
    const racing: Workspace = {
      ...workspace,
      writeFile: async (path, data, options) => {
        if (!swapped) {
          // The race, made deterministic: between planning and writing, d becomes a symlink to outside.
          swapped = true;
          renameSync(join(root, 'd'), join(root, 'd.held'));
          symlinkSync(outside, join(root, 'd'));
        }
        return workspace.writeFile(path, data, options);
      },
    };
    const result = await applyPatch(racing, patch('*** Update File: d/f.txt', '-x', '+owned', '*** Add File: d/new.txt', '+owned'));
    expect(result.ok).toBe(false);
    expect(readdirSync(outside)).toEqual(['f.txt']);
    expect(readFileSync(join(outside, 'f.txt'), 'utf8')).toBe('x\n');
  });

  it('edits an inside symlink as its target and keeps the link', async () => {
    mkdirSync(join(root, 'real'));
    writeFileSync(join(root, 'real/t.txt'), 'x\n');
    symlinkSync('real/t.txt', join(root, 'link.txt'));
    const result = await applyPatch(workspace, patch('*** Update File: link.txt', '-x', '+y'));
    expect(result.ok).toBe(true);
    expect(lstatSync(join(root, 'link.txt')).isSymbolicLink()).toBe(true);
    expect(read('real/t.txt')).toBe('y\n');
  });

  it('deleting an inside symlink removes the link, not its target', async () => {
    writeFileSync(join(root, 't.txt'), 'x\n');
    symlinkSync('t.txt', join(root, 'link.txt'));
    const result = await applyPatch(workspace, patch('*** Delete File: link.txt'));
    expect(result.ok).toBe(true);
    expect(readdirSync(root)).toEqual(['t.txt']);
  });

  it('Delete File of a link then Add File at its path makes a regular file and leaves the target alone', async () => {
    writeFileSync(join(root, 'real.txt'), 'precious\n');
    symlinkSync('real.txt', join(root, 'link.txt'));
    const result = await applyPatch(workspace, patch('*** Delete File: link.txt', '*** Add File: link.txt', '+new'));
    expect(result.ok).toBe(true);
    expect(read('real.txt')).toBe('precious\n');
    expect(lstatSync(join(root, 'link.txt')).isFile()).toBe(true);
    expect(read('link.txt')).toBe('new\n');
    expect(readdirSync(root).sort()).toEqual(['link.txt', 'real.txt']);
  });

  it('a Move onto a link deleted earlier in the patch makes a regular file and leaves the target alone', async () => {
    writeFileSync(join(root, 'real.txt'), 'precious\n');
    writeFileSync(join(root, 'src.txt'), 'source\n');
    chmodSync(join(root, 'src.txt'), 0o700);
    symlinkSync('real.txt', join(root, 'link.txt'));
    const result = await applyPatch(
      workspace,
      patch('*** Delete File: link.txt', '*** Update File: src.txt', '*** Move to: link.txt', '-source', '+moved'),
    );
    expect(result.ok).toBe(true);
    expect(read('real.txt')).toBe('precious\n');
    expect(lstatSync(join(root, 'link.txt')).isFile()).toBe(true);
    expect(statSync(join(root, 'link.txt')).mode & 0o777).toBe(0o700);
    expect(read('link.txt')).toBe('moved\n');
    expect(readdirSync(root).sort()).toEqual(['link.txt', 'real.txt']);
  });

  it('re-creates the removed link when the write replacing it fails', async () => {
    writeFileSync(join(root, 'real.txt'), 'precious\n');
    symlinkSync('real.txt', join(root, 'link.txt'));
    const failing: Workspace = {
      ...workspace,
      writeFile: async (path, data, options) => {
        if (path === 'link.txt') throw new Error('ENOSPC: no space left on device');
        return workspace.writeFile(path, data, options);
      },
    };
    const result = await applyPatch(failing, patch('*** Delete File: link.txt', '*** Add File: link.txt', '+new'));
    expect(result.ok).toBe(false);
    expect(result.output).toContain('nothing changed');
    expect(readlinkSync(join(root, 'link.txt'))).toBe('real.txt');
    expect(read('real.txt')).toBe('precious\n');
    expect(readdirSync(root).sort()).toEqual(['link.txt', 'real.txt']);
  });

  it('reports a name the file system refuses as a clean failure, not an internal error', async () => {
    const result = await applyPatch(workspace, patch('*** Add File: ok.txt', '+x', `*** Add File: ${'a'.repeat(256)}`, '+x'));
    expect(result.ok).toBe(false);
    expect(result.error?.code).toBe('tool_failed');
    expect(result.output).toContain('ENAMETOOLONG');
    expect(readdirSync(root)).toEqual([]);
    // A name too long to exist cannot be updated: it is simply missing.
    const update = await applyPatch(workspace, patch(`*** Update File: dir/${'b'.repeat(300)}`, '-x', '+y'));
    expect(update.error?.code).toBe('patch_target_missing');
    expect(readdirSync(root)).toEqual([]);
  });

  it('refuses a non-UTF-8 file with a clear message and leaves it byte-identical', async () => {
    const latin1 = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]);
    writeFileSync(join(root, 'latin1.txt'), latin1);
    const result = await applyPatch(workspace, patch('*** Update File: latin1.txt', '-café', '+cafe'));
    expect(result.ok).toBe(false);
    expect(result.output).toContain('latin1.txt was not changed: it is not valid UTF-8 text');
    expect(readFileSync(join(root, 'latin1.txt'))).toEqual(latin1);
  });

  it('rolls back on disk when a write fails midway: created files removed, updated and deleted files restored', async () => {
    writeFileSync(join(root, 'a.txt'), 'a\n');
    chmodSync(join(root, 'a.txt'), 0o640);
    writeFileSync(join(root, 'gone.txt'), 'g\n');
    writeFileSync(join(root, 'z.txt'), 'z\n');
    const failing: Workspace = {
      ...workspace,
      writeFile: async (path, data, options) => {
        if (path === 'z.txt') throw new Error('EIO: i/o error');
        return workspace.writeFile(path, data, options);
      },
      removeEmptyDirectory: (path) => workspace.removeEmptyDirectory!(path),
    };
    const result = await applyPatch(
      failing,
      patch(
        '*** Update File: a.txt',
        '-a',
        '+A',
        '*** Add File: new/deeper/n.txt',
        '+n',
        '*** Delete File: gone.txt',
        '*** Update File: z.txt',
        '-z',
        '+Z',
      ),
    );
    expect(result.ok).toBe(false);
    expect(result.output).toContain('writing z.txt failed (EIO: i/o error); every file already written was restored');
    expect(read('a.txt')).toBe('a\n');
    expect(statSync(join(root, 'a.txt')).mode & 0o777).toBe(0o640);
    expect(read('gone.txt')).toBe('g\n');
    expect(read('z.txt')).toBe('z\n');
    // The folder the added file needed is removed again.
    expect(readdirSync(root).sort()).toEqual(['a.txt', 'gone.txt', 'z.txt']);
  });
});

describe('apply_patch on a real folder, by durability', () => {
  let base: string;
  let flushes: string[];
  let restore: () => void;

  beforeEach(async () => {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'toolhost-patch-durability-')));
    // Every flush goes through a FileHandle's sync or datasync: count them on the class all handles share.
    const probe = await open(join(base, 'probe'), 'w');
    const prototype = Object.getPrototypeOf(probe) as { sync: () => Promise<void>; datasync: () => Promise<void> };
    await probe.close();
    const { sync, datasync } = prototype;
    flushes = [];
    prototype.sync = function (this: unknown) {
      flushes.push('sync');
      return sync.call(this);
    };
    prototype.datasync = function (this: unknown) {
      flushes.push('datasync');
      return datasync.call(this);
    };
    restore = () => Object.assign(prototype, { sync, datasync });
  });
  afterEach(() => {
    restore();
    rmSync(base, { recursive: true, force: true });
  });

  const twoFiles = (durability: 'disk' | 'process') => {
    const root = join(base, durability);
    mkdirSync(root);
    writeFileSync(join(root, 'a.txt'), 'a1\n');
    writeFileSync(join(root, 'b.txt'), 'b1\n');
    const state = join(base, `state-${durability}`);
    return { root, state, workspace: createNodeWorkspace(root, { stateDirectory: state, durability }) };
  };
  const edit = patch('*** Update File: a.txt', '@@', '-a1', '+a2', '*** Update File: b.txt', '@@', '-b1', '+b2');

  it('flushes the journal, the new files and their folders by default (disk)', async () => {
    const { root, state, workspace } = twoFiles('disk');
    const result = await applyPatch(workspace, edit);
    expect(result.ok).toBe(true);
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('a2\n');
    expect(readFileSync(join(root, 'b.txt'), 'utf8')).toBe('b2\n');
    // Two journal writes (file and folder each), two new files, the backups' folder and the targets' folder.
    expect(flushes.filter((kind) => kind === 'datasync')).toHaveLength(2);
    expect(flushes.filter((kind) => kind === 'sync').length).toBeGreaterThanOrEqual(6);
    expect(readdirSync(root).sort()).toEqual(['a.txt', 'b.txt']);
    expect(readdirSync(join(state, 'commits'))).toEqual([]);
  });

  it('flushes nothing with durability process, and commits the same way (journal, backups, renames)', async () => {
    const { root, state, workspace } = twoFiles('process');
    const result = await applyPatch(workspace, edit);
    expect(result.ok).toBe(true);
    expect(result.output).toBe('Success. Updated the following files:\nM a.txt\nM b.txt\n');
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('a2\n');
    expect(readFileSync(join(root, 'b.txt'), 'utf8')).toBe('b2\n');
    expect(flushes).toEqual([]);
    expect(readdirSync(root).sort()).toEqual(['a.txt', 'b.txt']);
    // The journal was written (its folder made in the state folder) and removed with its folder.
    expect(readdirSync(join(state, 'commits'))).toEqual([]);
  });
});
