import { describe, expect, it } from 'vitest';
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';
import { boundDiff, createDiffEntry } from './diff-entry.js';
import { splitLines } from './text-document.js';

describe('createDiffEntry', () => {
  it('renders exactly what jsdiff renders for the same change, diffing only the edited regions', () => {
    const oldText = Array.from({ length: 40 }, (_, i) => `line ${i}`).join('\n') + '\n';
    const newLines = splitLines(oldText);
    newLines.splice(5, 1, { text: 'five', eol: '\n' });
    newLines.splice(30, 0, { text: 'inserted', eol: '\n' });
    const newText = newLines.map((line) => line.text + line.eol).join('');
    const entry = createDiffEntry({
      path: 'f.txt',
      operation: 'updated',
      oldLines: splitLines(oldText),
      newLines,
      regions: [
        { oldStart: 4, oldCount: 3, newStart: 4, newCount: 3 },
        { oldStart: 29, oldCount: 1, newStart: 29, newCount: 2 },
      ],
      unchanged: false,
    });
    expect(entry.content).toBe(
      createTwoFilesPatch('a/f.txt', 'b/f.txt', oldText, newText, undefined, undefined, { context: 3, headerOptions: FILE_HEADERS_ONLY }),
    );
    expect(entry).toMatchObject({ additions: 2, deletions: 1, truncated: false, is_empty: false });
  });

  it('uses /dev/null for created and deleted files', () => {
    const lines = splitLines('a\nb');
    expect(createDiffEntry({ path: 'n', operation: 'created', oldLines: [], newLines: lines, unchanged: false }).content).toBe(
      '--- /dev/null\n+++ b/n\n@@ -0,0 +1,2 @@\n+a\n+b\n\\ No newline at end of file\n',
    );
    expect(createDiffEntry({ path: 'n', operation: 'deleted', oldLines: lines, newLines: [], unchanged: false }).content).toBe(
      '--- a/n\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-a\n-b\n\\ No newline at end of file\n',
    );
  });

  it('bounds only diffs longer than 160 lines', () => {
    const exact = Array.from({ length: 160 }, (_, i) => `+${i}`).join('\n') + '\n';
    expect(boundDiff(exact)).toEqual({ content: exact, truncated: false });
    const long = Array.from({ length: 161 }, (_, i) => `+${i}`).join('\n') + '\n';
    const bounded = boundDiff(long);
    expect(bounded.truncated).toBe(true);
    expect(bounded.content.split('\n').slice(95, 98)).toEqual(['+95', '... 33 diff lines omitted ...', '+129']);
  });
});
