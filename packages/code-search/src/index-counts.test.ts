import { describe, expect, it } from 'vitest';
import type { FileEntry } from './file-entry.js';
import { countEntries } from './index-counts.js';

describe('countEntries', () => {
  it('counts parsed files, identifier nodes (two numbers each) and the bytes of every per-file array', () => {
    const base = { size: 1, mtimeMs: 1, indexedAtMs: 10_000 };
    const entries: FileEntry[] = [
      { ...base, kind: 'parsed', folds: new Uint32Array(3), occurrences: new Int32Array(4), grams: new Uint8Array(16) },
      { ...base, kind: 'parsed', occurrences: new Int32Array(0) },
      { ...base, kind: 'tokens', folds: new Uint32Array(2) },
      { ...base, kind: 'other', grams: new Uint8Array(8) },
      { ...base, kind: 'binary' },
    ];
    expect(countEntries(entries)).toEqual({ parsed: 2, occurrences: 2, arrayBytes: 12 + 16 + 16 + 8 + 8 });
  });

  it('is all zeros for no entries', () => {
    expect(countEntries([])).toEqual({ parsed: 0, occurrences: 0, arrayBytes: 0 });
  });
});
