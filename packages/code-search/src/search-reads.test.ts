import { createMemoryWorkspace, type Workspace } from '@toolhost/core';
import { describe, expect, it } from 'vitest';
import { MAX_PARSE_BYTES, RACY_MARGIN_MS } from './file-limits.js';
import { createSearchReads, LARGE, SKIPPED, type BinaryVerdicts } from './search-reads.js';

/** A memory workspace that records every readFile. */
function recording(files: Record<string, string | Uint8Array>) {
  const inner = createMemoryWorkspace(files);
  const reads: string[] = [];
  const workspace: Workspace = {
    ...inner,
    lstat: (path) => inner.lstat(path),
    readFile: (path) => (reads.push(path), inner.readFile(path)),
  };
  return { workspace, reads, inner };
}

describe('the reads of a search', () => {
  it('reads each file once however often it is asked for, and names an unreadable one undefined', async () => {
    const { workspace, reads } = recording({ 'a.ts': 'alpha' });
    const searchReads = createSearchReads(['a.ts', 'gone.ts'], { workspace, text: true, sizeFirst: false });
    const [first, again] = await Promise.all([searchReads.read(0), searchReads.read(0)]);
    expect(new TextDecoder().decode(first)).toBe('alpha');
    expect(again).toBe(first);
    expect(await searchReads.read(1)).toBeUndefined();
    expect(reads).toEqual(['a.ts', 'gone.ts']);
    expect(searchReads.unsettled()).toHaveLength(2);
    searchReads.release(0);
    expect(searchReads.unsettled()).toHaveLength(1);
  });

  it('skips a known binary unread while its size and mtime hold, unless it is large and text is not wanted', async () => {
    const big = new Uint8Array(MAX_PARSE_BYTES + 1);
    const { workspace, reads } = recording({ 'small.bin': new Uint8Array([0, 1, 2]), 'big.bin': big });
    const binaries: BinaryVerdicts = new Map();
    for (const path of ['small.bin', 'big.bin']) {
      const stat = (await workspace.lstat(path))!;
      binaries.set(path, { mtimeMs: stat.mtimeMs, size: stat.size });
    }
    const files = ['small.bin', 'big.bin'];
    const forText = createSearchReads(files, { workspace, binaries, text: true, sizeFirst: false });
    expect(await forText.read(0)).toBe(SKIPPED);
    expect(await forText.read(1)).toBe(SKIPPED);
    expect(reads).toEqual([]);
    // Without text, a large binary may still count for the "over 2 MB" hint: it is read.
    const forSymbols = createSearchReads(files, { workspace, binaries, text: false, sizeFirst: false });
    expect(await forSymbols.read(0)).toBe(SKIPPED);
    expect((await forSymbols.read(1))?.length).toBe(big.length);
    expect(reads).toEqual(['big.bin']);
  });

  it('checks the size first when asked, naming a file over 2 MB LARGE unread', async () => {
    const { workspace, reads } = recording({ 'big.ts': new Uint8Array(MAX_PARSE_BYTES + 1), 'small.ts': 'beta' });
    const searchReads = createSearchReads(['big.ts', 'small.ts'], { workspace, text: false, sizeFirst: true });
    expect(await searchReads.read(0)).toBe(LARGE);
    expect(new TextDecoder().decode(await searchReads.read(1))).toBe('beta');
    expect(reads).toEqual(['small.ts']);
  });

  it('remembers a binary verdict only when the mtime is old enough to vouch for the bytes, and only with a verdict map', async () => {
    const { workspace, inner } = recording({ 'new.bin': new Uint8Array([0, 1]), 'old.bin': new Uint8Array([0, 1, 2]) });
    const old = Date.now() - RACY_MARGIN_MS * 10;
    const aged: Workspace = {
      ...workspace,
      lstat: async (path) => (path === 'old.bin' ? { ...(await inner.lstat(path))!, mtimeMs: old } : inner.lstat(path)),
    };
    const binaries: BinaryVerdicts = new Map();
    const searchReads = createSearchReads([], { workspace: aged, binaries, text: true, sizeFirst: false });
    searchReads.rememberBinary('new.bin', 2);
    searchReads.rememberBinary('old.bin', 3);
    await Promise.all(searchReads.unsettled());
    expect([...binaries]).toEqual([['old.bin', { mtimeMs: old, size: 3 }]]);
    const withoutVerdicts = createSearchReads([], { workspace: aged, text: true, sizeFirst: false });
    withoutVerdicts.rememberBinary('old.bin', 3);
    expect(withoutVerdicts.unsettled()).toEqual([]);
  });
});
