import { describe, expect, it } from 'vitest';
import { APPLY_PATCH_LARK_GRAMMAR } from './apply-patch-schema.js';
import { parsePatch } from './parse-patch.js';

const patch = (...lines: string[]) => ['*** Begin Patch', ...lines, '*** End Patch'].join('\n');

function parsed(text: string) {
  const result = parsePatch(text);
  if (!result.ok) throw new Error(result.message);
  return result.patch.operations;
}

function failure(text: string) {
  const result = parsePatch(text);
  if (result.ok) throw new Error('expected a parse error');
  return result;
}

describe('parsePatch', () => {
  it('parses add, delete and update with move, anchors, context and end of file', () => {
    const operations = parsed(
      patch(
        '*** Add File: a.txt',
        '+one',
        '+two',
        '*** Delete File: b.txt',
        '*** Update File: c.txt',
        '*** Move to: d.txt',
        '@@ def f():',
        ' x',
        '-y',
        '+z',
        '*** End of File',
      ),
    );
    expect(operations).toEqual([
      { kind: 'add', path: 'a.txt', content: 'one\ntwo\n', line: 2 },
      { kind: 'delete', path: 'b.txt', line: 5 },
      {
        kind: 'update',
        path: 'c.txt',
        moveTo: 'd.txt',
        line: 6,
        chunks: [
          {
            anchors: ['def f():'],
            endOfFile: true,
            line: 8,
            lines: [
              { kind: ' ', text: 'x', line: 9 },
              { kind: '-', text: 'y', line: 10 },
              { kind: '+', text: 'z', line: 11 },
            ],
          },
        ],
      },
    ]);
  });

  it('accepts padded markers, CRLF text and a missing final newline', () => {
    const text = '  *** Begin Patch  \r\n   *** Update File:   a.txt  \r\n@@\r\n-x\r\n+y\r\n *** End Patch ';
    const [operation] = parsed(text);
    expect(operation).toMatchObject({
      kind: 'update',
      path: 'a.txt',
      chunks: [
        {
          lines: [
            { kind: '-', text: 'x' },
            { kind: '+', text: 'y' },
          ],
        },
      ],
    });
    expect(parsed(patch('*** Delete File: a')).length).toBe(1);
    expect(parsed(`${patch('*** Delete File: a')}\n\n`).length).toBe(1);
  });

  it.each([
    ["<<'EOF'", 'EOF'],
    ['<<EOF', 'EOF'],
    ['<<"PATCH"', 'PATCH'],
    ["apply_patch <<'END'", 'END'],
  ])('unwraps a heredoc %s … %s', (open, close) => {
    expect(parsed(`${open}\n${patch('*** Delete File: a')}\n${close}\n`)).toEqual([{ kind: 'delete', path: 'a', line: 3 }]);
  });

  it('unwraps a markdown fence', () => {
    expect(parsed(`\`\`\`diff\n${patch('*** Delete File: a')}\n\`\`\``)).toHaveLength(1);
  });

  it('stacks consecutive @@ anchors in one chunk and starts a new chunk after change lines', () => {
    const [operation] = parsed(patch('*** Update File: a', '@@ class A', '@@ def f', '-x', '+y', '@@ def g', '-p', '+q'));
    expect(operation.kind === 'update' && operation.chunks.map((chunk) => chunk.anchors)).toEqual([['class A', 'def f'], ['def g']]);
  });

  it('strips unified-diff line ranges from an anchor', () => {
    const [operation] = parsed(patch('*** Update File: a', '@@ -10,7 +10,8 @@ def f():', '-x', '+y', '@@ -40,2 +41,2 @@', '-p', '+q'));
    expect(operation.kind === 'update' && operation.chunks.map((chunk) => chunk.anchors)).toEqual([['def f():'], []]);
  });

  it('accepts a first chunk without @@ and empty lines as empty context', () => {
    const [operation] = parsed(patch('*** Update File: a', ' x', '', '-y', '+z'));
    expect(operation.kind === 'update' && operation.chunks[0].lines.map((line) => line.kind + line.text)).toEqual([' x', ' ', '-y', '+z']);
  });

  it('keeps empty lines inside Add content that lack "+", and drops blank separators after it', () => {
    const [add, del] = parsed(patch('*** Add File: a', '+one', '', '+three', '', '*** Delete File: b'));
    expect(add).toMatchObject({ kind: 'add', content: 'one\n\nthree\n' });
    expect(del).toMatchObject({ kind: 'delete', path: 'b' });
  });

  it('keeps a blank line at the end of an update before the next header as empty context, as Codex does (the matcher drops it when the chunk is not found with it)', () => {
    const [update] = parsed(patch('*** Update File: a', '-x', '+y', '', '*** Delete File: b'));
    expect(update.kind === 'update' && update.chunks[0].lines.map((line) => line.kind + line.text)).toEqual(['-x', '+y', ' ']);
  });

  it('allows an Add File with no lines (an empty file) and a pure rename', () => {
    expect(parsed(patch('*** Add File: a'))).toEqual([{ kind: 'add', path: 'a', content: '', line: 2 }]);
    expect(parsed(patch('*** Update File: a', '*** Move to: b'))).toMatchObject([{ kind: 'update', moveTo: 'b', chunks: [] }]);
  });

  it('reads a space-led line in an Update body as context even when it looks like a marker', () => {
    const [update, ...rest] = parsed(
      patch(
        '*** Update File: docs/x.md',
        ' *** Move to: elsewhere.md',
        '@@',
        ' Example:',
        '-old',
        '+new',
        ' *** Delete File: src/main.ts',
        ' *** Add File: y',
        ' *** Update File: z',
        ' *** End of File',
        ' *** End Patch',
        ' tail',
      ),
    );
    expect(rest).toEqual([]);
    expect(update.kind === 'update' && update.moveTo).toBeUndefined();
    expect(update.kind === 'update' && update.chunks.map((chunk) => chunk.lines.map((line) => line.kind + line.text))).toEqual([
      [' *** Move to: elsewhere.md'],
      [
        ' Example:',
        '-old',
        '+new',
        ' *** Delete File: src/main.ts',
        ' *** Add File: y',
        ' *** Update File: z',
        ' *** End of File',
        ' *** End Patch',
        ' tail',
      ],
    ]);
  });

  it('still accepts markers padded where they cannot be content', () => {
    const operations = parsed(
      patch(
        '*** Update File: a',
        '-x',
        '+y',
        '\t*** Delete File: b  ',
        '*** Add File: c',
        '+c',
        '  *** Update File: d  ',
        '*** Move to: e   ',
        '-p',
        '+q',
        '*** End of File   ',
        '*** Delete File: f',
      ),
    );
    expect(operations.map((operation) => `${operation.kind} ${operation.path}`)).toEqual([
      'update a',
      'delete b',
      'add c',
      'update d',
      'delete f',
    ]);
    expect(operations[3]).toMatchObject({ moveTo: 'e', chunks: [{ endOfFile: true }] });
    const tabbed = parsed(patch('*** Update File: a', '-x', '+y', '\t*** End of File'));
    expect(tabbed[0]).toMatchObject({ chunks: [{ endOfFile: true }] });
  });

  it('takes the last line as End Patch even when padded, so a context " *** End Patch" needs a real one after it', () => {
    const padded = parsed('*** Begin Patch\n*** Update File: a\n-x\n+y\n *** End Patch\n');
    expect(padded[0].kind === 'update' && padded[0].chunks[0].lines.map((line) => line.kind + line.text)).toEqual(['-x', '+y']);
    const quoted = parsed(patch('*** Update File: a', '-x', '+y', ' *** End Patch'));
    expect(quoted[0].kind === 'update' && quoted[0].chunks[0].lines.map((line) => line.kind + line.text)).toEqual([
      '-x',
      '+y',
      ' *** End Patch',
    ]);
    // A space-led End Patch in the middle is context, so what follows is still part of the body.
    const middle = failure('*** Begin Patch\n*** Update File: a\n-x\n+y\n *** End Patch\ngarbage\n*** End Patch');
    expect(middle.line).toBe(6);
    expect(middle.message).toContain('expected a chunk line in a');
  });

  it('round-trips Add and Update bodies that quote the patch format', () => {
    const format = [
      '*** Begin Patch',
      '*** Update File: p',
      '*** Move to: q',
      '@@ anchor',
      ' *** Delete File: r',
      '*** End of File',
      '*** End Patch',
    ];
    const [add, update] = parsed(
      patch(
        '*** Add File: doc.md',
        ...format.map((line) => `+${line}`),
        '*** Update File: other.md',
        ...format.map((line) => ` ${line}`),
        ...format.map((line) => `-${line}`),
      ),
    );
    expect(add).toMatchObject({ kind: 'add', content: format.map((line) => `${line}\n`).join('') });
    expect(update.kind === 'update' && update.chunks.map((chunk) => chunk.lines.map((line) => line.text))).toEqual([
      [...format, ...format],
    ]);
  });

  it('names the line and what was expected', () => {
    expect(failure('hello')).toMatchObject({ line: 1 });
    expect(failure('hello').message).toMatch(/^line 1: expected "\*\*\* Begin Patch"/);
    const noEnd = failure('*** Begin Patch\n*** Delete File: a\n');
    expect(noEnd.line).toBe(2);
    expect(noEnd.message).toContain('expected "*** End Patch"');
    const bad = failure(patch('*** Update File: a', ' x', 'oops', '+y'));
    expect(bad.line).toBe(4);
    expect(bad.message).toContain('line 4: expected a chunk line in a starting with " " (context)');
    expect(bad.message).toContain('"oops"');
    const badHeader = failure(patch('*** Frobnicate File: a'));
    expect(badHeader).toMatchObject({ line: 2 });
    expect(badHeader.message).toContain('expected a file header');
    expect(failure(patch('*** Add File: a', 'no plus')).message).toContain('line 3: expected a line starting with "+"');
    expect(failure(patch('*** Update File: a')).message).toContain('has no chunks');
    expect(failure(patch('*** Update File: a', '@@ x', '*** Delete File: b')).message).toContain(
      'line 3: the chunk of a starting here has no lines',
    );
    expect(failure(patch()).message).toContain('no file operations');
    expect(failure('').message).toContain('empty');
    expect(failure(patch('*** Add File:   ')).message).toContain('expected a path');
  });

  it('hints when the input is a unified diff', () => {
    const message = failure('diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n-a\n+b\n').message;
    expect(message).toContain('looks like a unified diff');
    expect(message).toContain('*** Begin Patch');
  });

  it('hints when the input is JSON-wrapped', () => {
    expect(failure(JSON.stringify({ input: patch('*** Delete File: a') })).message).toContain('JSON-encoded');
    expect(failure(JSON.stringify(patch('*** Delete File: a'))).message).toContain('JSON-encoded');
  });

  it('exports the Lark grammar for the freeform form', () => {
    expect(APPLY_PATCH_LARK_GRAMMAR).toContain('start: begin_patch hunk+ end_patch');
  });
});
