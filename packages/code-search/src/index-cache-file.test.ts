import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { INDEX_FORMAT, readIndexCache, writeIndexCache, type StoredIndex } from './index-cache-file.js';

describe('the index cache file', () => {
  let folder = '';
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'index-cache-file-'));
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  const stored: StoredIndex = {
    format: INDEX_FORMAT,
    root: '/work/project',
    names: ['Widget'],
    folds: ['widget'],
    dirs: [['', 1000]],
    files: [
      [
        'a.ts',
        { size: 10, mtimeMs: 1000, indexedAtMs: 9000, kind: 'parsed', folds: Uint32Array.from([0]), occurrences: Int32Array.from([0, 1]) },
      ],
    ],
  };

  it('reads back what it wrote, in a folder it makes, leaving no temporary file', () => {
    const file = join(folder, 'nested', 'index.v8');
    expect(writeIndexCache(file, stored)).toBe(true);
    expect(readIndexCache(file, stored.root)).toEqual(stored);
    expect(readdirSync(join(folder, 'nested'))).toEqual(['index.v8']);
  });

  it('ignores a missing or unreadable file, another format and another root', () => {
    const file = join(folder, 'index.v8');
    expect(readIndexCache(file, stored.root)).toBeUndefined();
    writeFileSync(file, 'not a v8 serialization');
    expect(readIndexCache(file, stored.root)).toBeUndefined();
    writeIndexCache(file, { ...stored, format: INDEX_FORMAT - 1 });
    expect(readIndexCache(file, stored.root)).toBeUndefined();
    writeIndexCache(file, stored);
    expect(readIndexCache(file, '/work/other')).toBeUndefined();
  });

  it('answers false, without throwing, when a file stands where its folder would be', () => {
    writeFileSync(join(folder, 'blocker'), 'a file, not a folder');
    expect(writeIndexCache(join(folder, 'blocker', 'nested', 'index.v8'), stored)).toBe(false);
  });

  it('answers false and leaves nothing behind when the file cannot be written', () => {
    // A folder where the file should be: the temporary file is written, then cannot be renamed over it.
    const file = join(folder, 'index.v8');
    mkdirSync(join(file, 'inside'), { recursive: true });
    expect(writeIndexCache(file, stored)).toBe(false);
    expect(readdirSync(folder)).toEqual(['index.v8']);
  });
});
