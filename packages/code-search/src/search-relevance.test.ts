import { describe, expect, it } from 'vitest';
import type { ResultType } from './code-search-schema.js';
import type { IndexedFile } from './index-lookups.js';
import { createLiteralMatcher } from './literal-matcher.js';
import { fileMayAdd, mayNeedParses } from './search-relevance.js';

const mayAdd = (types: ResultType[], options: { query?: string; overflow?: ResultType[]; known?: IndexedFile[] } = {}) =>
  fileMayAdd({
    matcher: createLiteralMatcher(options.query ?? 'Widget'),
    resultTypes: new Set(types),
    known: options.known && new Map(options.known.map((file) => [file.path, file])),
    overflow: new Set(options.overflow),
  });

describe('which files a search still reads', () => {
  it('reads every file while text is wanted and not full', () => {
    const test = mayAdd(['definition', 'text']);
    for (const path of ['a.ts', 'b.md', 'c.rb', 'Makefile']) expect(test(path)).toBe(true);
  });

  it('reads no file once every wanted category is full, nor for definitions of a query that is no identifier', () => {
    expect(mayAdd(['definition', 'text'], { overflow: ['definition', 'text'] })('a.ts')).toBe(false);
    expect(mayAdd(['definition', 'usage'], { query: 'a b' })('a.ts')).toBe(false);
  });

  it('past full text, reads code files only; any file may still count for the large-file hint when text is not wanted', () => {
    const textFull = mayAdd(['definition', 'text'], { overflow: ['text'] });
    expect(textFull('a.ts')).toBe(true);
    expect(textFull('b.rb')).toBe(true);
    expect(textFull('c.md')).toBe(false);
    expect(mayAdd(['definition'])('c.md')).toBe(true);
  });

  it('reads a file the index holds only when its identifier nodes are of an open kind, and sees the overflow as it grows', () => {
    const known: IndexedFile[] = [
      { path: 'uses.ts', size: 1, mtimeMs: 1, occurrences: [{ start: 0, definition: false }] },
      { path: 'defines.ts', size: 1, mtimeMs: 1, occurrences: [{ start: 0, definition: true }] },
    ];
    const overflow = new Set<ResultType>();
    const test = fileMayAdd({
      matcher: createLiteralMatcher('Widget'),
      resultTypes: new Set(['definition', 'usage']),
      known: new Map(known.map((file) => [file.path, file])),
      overflow,
    });
    expect(test('uses.ts')).toBe(true);
    expect(test('unknown.ts')).toBe(true);
    overflow.add('usage');
    expect(test('uses.ts')).toBe(false);
    expect(test('defines.ts')).toBe(true);
    expect(test('unknown.ts')).toBe(true);
  });
});

describe('mayNeedParses', () => {
  it('is false when every file is told apart lexically or has no grammar, true once one needs a parse', () => {
    expect(mayNeedParses(['a.go', 'b.rs', 'c.py', 'd.md', 'e.rb'])).toBe(false);
    expect(mayNeedParses(['a.go', 'b.ts'])).toBe(true);
    expect(mayNeedParses([])).toBe(false);
  });
});
