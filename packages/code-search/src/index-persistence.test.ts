import { existsSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IndexEntries } from './index-entries.js';
import { loadIndex, saveIndex } from './index-persistence.js';
import { NameTable } from './name-table.js';

describe('loading and saving an index', () => {
  let folder = '';
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'index-persistence-'));
  });
  afterEach(() => {
    rmSync(folder, { recursive: true, force: true });
  });

  it('loads what was saved for the same root, marks the file used, and loads nothing for another root', () => {
    const cacheFile = join(folder, 'index-a.v8');
    const names = new NameTable();
    names.nameId('Widget');
    const entries = new IndexEntries(undefined);
    entries.dirs.set('', 1000);
    entries.put('a.ts', { size: 3, mtimeMs: 1000, indexedAtMs: 900_000, kind: 'parsed', occurrences: new Int32Array([0, 1]) });
    entries.dirty = true;
    saveIndex(cacheFile, '/work/root', names, entries, undefined);
    expect(entries.dirty).toBe(false);
    const old = new Date(Date.now() - 3_600_000);
    utimesSync(cacheFile, old, old);

    const loadedNames = new NameTable();
    const loaded = new IndexEntries(undefined);
    expect(loadIndex(cacheFile, '/work/root', loadedNames, loaded)).toBe(true);
    expect(loadedNames.names).toEqual(names.names);
    expect(loadedNames.folds).toEqual(names.folds);
    expect([...loaded.dirs]).toEqual([['', 1000]]);
    expect(loaded.files.get('a.ts')).toEqual(entries.files.get('a.ts'));
    expect(statSync(cacheFile).mtimeMs).toBeGreaterThan(old.getTime());

    expect(loadIndex(cacheFile, '/work/other', new NameTable(), new IndexEntries(undefined))).toBe(false);
    expect(loadIndex(join(folder, 'missing.v8'), '/work/root', new NameTable(), new IndexEntries(undefined))).toBe(false);
  });

  it('leaves the entries dirty when the cache file cannot be written', () => {
    const entries = new IndexEntries(undefined);
    entries.dirty = true;
    // A file stands where the cache folder would be.
    const blocker = join(folder, 'blocker');
    writeFileSync(blocker, '');
    saveIndex(join(blocker, 'index-b.v8'), '/work/root', new NameTable(), entries, undefined);
    expect(entries.dirty).toBe(true);
    expect(existsSync(join(blocker, 'index-b.v8'))).toBe(false);
  });
});
