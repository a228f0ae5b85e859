import { mkdirSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FileEntry } from './file-entry.js';
import { RACY_MARGIN_MS } from './file-limits.js';
import { IndexEntries } from './index-entries.js';
import { checkIndexedFile, type CheckReason, type FreshnessCheck } from './index-file-check.js';

describe('checking one indexed file against the disk', () => {
  let root = '';
  let entries: IndexEntries;
  /** Writes `path` with an mtime `ageMs` old and stores its entry, read `readAfterMs` after that mtime. */
  const indexed = (path: string, ageMs: number, readAfterMs: number): FileEntry => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), 'text\n');
    const time = new Date(Date.now() - ageMs);
    utimesSync(join(root, path), time, time);
    const stat = statSync(join(root, path));
    const entry: FileEntry = { size: stat.size, mtimeMs: stat.mtimeMs, indexedAtMs: stat.mtimeMs + readAfterMs, kind: 'other' };
    entries.put(path, entry);
    return entry;
  };
  const check = (path: string, entry: FileEntry, reason: CheckReason): FreshnessCheck => {
    const found: FreshnessCheck = { pending: new Set(), rewalk: [] };
    checkIndexedFile(entries, join(root, path), path, entry, found, reason);
    return found;
  };

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'index-file-check-'));
    entries = new IndexEntries(undefined);
  });
  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
  });

  it('leaves a trusted entry whose file kept its size and mtime, unless the journal heard it change', () => {
    const entry = indexed('a.ts', 60_000, RACY_MARGIN_MS + 1000);
    expect(check('a.ts', entry, 'sweep').pending.size).toBe(0);
    expect([...check('a.ts', entry, 'heard').pending]).toEqual(['a.ts']);
  });

  it('reads a file again when its size or mtime moved, and forgets one that is gone', () => {
    const entry = indexed('a.ts', 60_000, RACY_MARGIN_MS + 1000);
    writeFileSync(join(root, 'a.ts'), 'longer text\n');
    expect([...check('a.ts', entry, 'sweep').pending]).toEqual(['a.ts']);
    rmSync(join(root, 'a.ts'));
    expect(check('a.ts', entry, 'sweep').pending.size).toBe(0);
    expect(entries.files.has('a.ts')).toBe(false);
  });

  it('reads a recent entry again once that makes it trusted: at a sweep always, for the journal only past the racy margin', () => {
    const fresh = indexed('fresh.ts', 0, 0);
    expect(check('fresh.ts', fresh, 'recent').pending.size).toBe(0);
    expect([...check('fresh.ts', fresh, 'sweep').pending]).toEqual(['fresh.ts']);
    const settled = indexed('settled.ts', 60_000, 0);
    expect([...check('settled.ts', settled, 'recent').pending]).toEqual(['settled.ts']);
  });

  it("walks a changed .gitignore's folder again", () => {
    const nested = indexed('sub/.gitignore', 60_000, RACY_MARGIN_MS + 1000);
    const top = indexed('.gitignore', 60_000, RACY_MARGIN_MS + 1000);
    expect(check('sub/.gitignore', nested, 'heard').rewalk).toEqual(['sub']);
    expect(check('.gitignore', top, 'heard').rewalk).toEqual(['']);
  });
});
