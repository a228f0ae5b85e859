import { promises as fs, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createNodeWorkspace } from './node-workspace.js';
import { createQuickReads, QUICK_READ_MAX_BYTES } from './node-quick-reads.js';

describe('quick reads of a Node workspace', () => {
  let root = '';
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'quick-reads-'));
    mkdirSync(join(root, 'src'));
    writeFileSync(join(root, 'src/a.ts'), 'export const alpha = 1;\n');
    writeFileSync(join(root, 'empty.txt'), '');
    writeFileSync(join(root, 'edge.bin'), new Uint8Array(QUICK_READ_MAX_BYTES).fill(7));
    writeFileSync(join(root, 'large.bin'), new Uint8Array(QUICK_READ_MAX_BYTES + 1).fill(9));
    symlinkSync('src/a.ts', join(root, 'link.ts'));
    symlinkSync('nowhere', join(root, 'dangling'));
  });
  afterEach(() => {
    vi.restoreAllMocks();
    rmSync(root, { recursive: true, force: true });
  });

  it('answers as the asynchronous calls do: bytes, stats, missing paths and errors', async () => {
    const workspace = createNodeWorkspace(root);
    for (const path of ['src/a.ts', 'empty.txt', 'link.ts', 'edge.bin', 'large.bin']) {
      const bytes = await workspace.readFile(path);
      expect(Buffer.from(bytes).equals(await fs.readFile(join(root, path))), path).toBe(true);
      // Its own memory, never a slice of a shared pool.
      expect(bytes.byteOffset, path).toBe(0);
    }
    for (const path of ['src/a.ts', 'src', 'link.ts', 'dangling', '']) {
      const stats = await fs.lstat(join(root, path));
      expect(await workspace.lstat(path), path).toEqual({
        kind: expect.any(String),
        size: stats.size,
        mtimeMs: stats.mtimeMs,
        mode: stats.mode & 0o7777,
      });
    }
    expect((await workspace.lstat('dangling'))?.kind).toBe('symlink');
    for (const path of ['missing.ts', 'src/a.ts/below', 'dangling/below']) expect(await workspace.lstat(path), path).toBeUndefined();
    await expect(workspace.readFile('missing.ts')).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(workspace.readFile('dangling')).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(workspace.readFile('src')).rejects.toMatchObject({ code: 'EISDIR' });
  });

  it('never blocks the event loop on a FIFO: it is read through the thread pool, as before', async () => {
    execFileSync('mkfifo', [join(root, 'pipe')]);
    const workspace = createNodeWorkspace(root);
    expect((await workspace.lstat('pipe'))?.kind).toBe('other');
    const reading = workspace.readFile('pipe');
    // The event loop still turns while the read waits for a writer.
    await new Promise((resolve) => setTimeout(resolve, 20));
    await fs.writeFile(join(root, 'pipe'), 'through the pipe');
    expect(new TextDecoder().decode(await reading)).toBe('through the pipe');
  });

  it('reads a file over the limit through the thread pool, and every call once one was slow', async () => {
    const quick = createQuickReads();
    expect(quick.readFile(join(root, 'large.bin'))).toBeUndefined();
    expect(quick.readFile(join(root, 'edge.bin'))?.length).toBe(QUICK_READ_MAX_BYTES);
    expect(quick.on).toBe(true);
    // One call that takes 20 ms: it answers, and quick reads are off from then on.
    let now = 0;
    const slowClock = vi.spyOn(performance, 'now').mockImplementation(() => (now += 20));
    expect(new TextDecoder().decode(quick.readFile(join(root, 'src/a.ts')))).toBe('export const alpha = 1;\n');
    expect(quick.on).toBe(false);

    slowClock.mockRestore();

    // Through the workspace: quick until a call is slow, then asynchronous.
    const readFile = vi.spyOn(fs, 'readFile');
    const lstat = vi.spyOn(fs, 'lstat');
    const workspace = createNodeWorkspace(root);
    await workspace.readFile('src/a.ts');
    await workspace.lstat('src/a.ts');
    expect(readFile).not.toHaveBeenCalled();
    expect(lstat).not.toHaveBeenCalled();
    const slowAgain = vi.spyOn(performance, 'now').mockImplementation(() => (now += 20));
    expect(new TextDecoder().decode(await workspace.readFile('src/a.ts'))).toBe('export const alpha = 1;\n');
    expect(readFile).not.toHaveBeenCalled();
    slowAgain.mockRestore();
    expect(new TextDecoder().decode(await workspace.readFile('src/a.ts'))).toBe('export const alpha = 1;\n');
    await workspace.lstat('src/a.ts');
    expect(readFile).toHaveBeenCalledTimes(1);
    expect(lstat).toHaveBeenCalledTimes(1);
  });
});
