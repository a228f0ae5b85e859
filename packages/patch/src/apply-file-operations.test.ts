import { describe, expect, it } from 'vitest';
import { ANTHROPIC_NATIVE_VOCABULARY, OPENAI_NATIVE_VOCABULARY, createMemoryWorkspace, type ToolVocabulary } from '@toolhost/core';
import { applyFileOperations, applyPatch } from './apply-patch.js';
import type { FileOperation } from './file-operation.js';
import { PathLocks } from './path-locks.js';

async function run(files: Record<string, string | Uint8Array>, operations: readonly unknown[], vocabulary?: ToolVocabulary) {
  const workspace = createMemoryWorkspace(files);
  const result = await applyFileOperations(workspace, operations as FileOperation[], { locks: new PathLocks(), vocabulary });
  return {
    result,
    files: workspace.snapshot(),
    bytes: async (path: string) => Buffer.from(await workspace.readFile(path)).toString('utf8'),
  };
}

describe('applyFileOperations', () => {
  it('creates a file with exactly its content: no line ending added, CRLF and a BOM kept', async () => {
    const { result, files, bytes } = await run({}, [
      { kind: 'add', path: 'plain.txt', content: 'no final newline' },
      { kind: 'add', path: 'crlf.txt', content: '\ufeffa\r\nb\r\n' },
      { kind: 'add', path: 'empty.txt', content: '' },
    ]);
    expect(result.output).toBe('Success. Updated the following files:\nA plain.txt\nA crlf.txt\nA empty.txt\n');
    expect(files).toEqual({ 'plain.txt': 'no final newline', 'crlf.txt': 'a\r\nb\r\n', 'empty.txt': '' });
    expect(await bytes('crlf.txt')).toBe('\ufeffa\r\nb\r\n');
  });

  it('applies chunks given as data, numbering their lines by position for reports', async () => {
    const update = {
      kind: 'update',
      path: 'a.txt',
      chunks: [
        {
          anchors: [],
          endOfFile: false,
          lines: [
            { kind: ' ', text: 'one' },
            { kind: '-', text: 'two' },
            { kind: '+', text: 'TWO' },
          ],
        },
      ],
    };
    expect((await run({ 'a.txt': 'one\ntwo\n' }, [update])).files).toEqual({ 'a.txt': 'one\nTWO\n' });
    const missing = { ...update, chunks: [{ anchors: [], endOfFile: false, lines: [{ kind: '-', text: 'three' }] }] };
    const { result } = await run({ 'a.txt': 'one\ntwo\n' }, [missing]);
    expect(result.output).toContain('    chunk 1 (patch line 1): NOT FOUND');
  });

  it('reads a V4A diff as the change of its one file and moves it', async () => {
    const { result, files } = await run(
      { 'a.txt': 'one\r\ntwo\r\n' },
      [{ kind: 'update', path: 'a.txt', moveTo: 'b/c.txt', diff: '@@\n one\n-two\n+deux\n' }],
      OPENAI_NATIVE_VOCABULARY,
    );
    expect(result.ok).toBe(true);
    expect(files).toEqual({ 'b/c.txt': 'one\r\ndeux\r\n' });
    expect((await run({ 'a.txt': 'x\n' }, [{ kind: 'update', path: 'a.txt', moveTo: 'b.txt', diff: '' }])).files).toEqual({
      'b.txt': 'x\n',
    });
  });

  it.each([
    ['*** Delete File: victim.txt', 3],
    ['*** Update File: victim.txt', 1],
    ['\t*** Add File: other.txt', 2],
    ['*** Move to: victim.txt', 1],
    ['*** Begin Patch', 4],
    ['*** End Patch  ', 2],
  ])('refuses an update diff holding %j (at line %i), changing nothing', async (marker, at) => {
    const lines = ['@@', '-one', '+uno'];
    lines.splice(at - 1, 0, marker);
    const files = { 'a.txt': 'one\n', 'victim.txt': 'keep\n' };
    const { result, files: after } = await run(
      files,
      [{ kind: 'update', path: 'a.txt', diff: lines.join('\n') }],
      OPENAI_NATIVE_VOCABULARY,
    );
    expect(result.error?.code).toBe('patch_parse_error');
    expect(result.data).toEqual({ line: at });
    expect(result.output).toBe(
      `Error [patch_parse_error]: Nothing was changed: update_file a.txt: line ${at} of the diff: ${JSON.stringify(marker)} is a patch file marker; this diff may only change a.txt. Send each file's change as its own operation; to keep such a line as unchanged text, prefix it with a space.`,
    );
    expect(after).toEqual(files);
  });

  it.each([
    [
      '@@\n a\n-b\n*** End of File\n\n',
      'line 5 of the diff: expected an "@@" line to start the next chunk of a.txt (after "*** End of File" or "***"), got "".',
    ],
    ['@@ x\n@@x\n-a', 'line 2 of the diff: "@@x" is not an anchor line: write "@@" alone or "@@ " followed by the line to find.'],
    [
      '@@ x',
      'line 2 of the diff: the chunk of a.txt starting here has no lines; add context (" line"), removed ("-line") or added ("+line") lines after its "@@" line.',
    ],
    [
      '@@\n*** Bogus',
      'line 2 of the diff: expected a chunk line in a.txt starting with " " (context), "-" (removed), "+" (added), "@@" (anchor) or "*** End of File", got "*** Bogus". If it is unchanged context, prefix it with a space.',
    ],
  ])('refuses the V4A diff %j as applyDiff does, saying why', async (diff, why) => {
    const files = { 'a.txt': 'a\nb\n' };
    const { result, files: after } = await run(files, [{ kind: 'update', path: 'a.txt', diff }], OPENAI_NATIVE_VOCABULARY);
    expect(result.output).toBe(
      `Error [patch_parse_error]: The patch was not applied and no file was changed: 1 of 1 operation failed.\nupdate_file a.txt: FAILED — ${why}\nFix only what failed (re-read the file with shell if unsure) and send the operation again.`,
    );
    expect(after).toEqual(files);
  });

  it('names the anchor of a stacked V4A chunk that is not found, and where the search started', async () => {
    const files = { 'a.txt': 'class A\n  def f():\n    pass\n' };
    const { result } = await run(
      files,
      [{ kind: 'update', path: 'a.txt', diff: '@@ class A\n@@   def g():\n-    pass\n+    return 1' }],
      OPENAI_NATIVE_VOCABULARY,
    );
    expect(result.output).toContain(
      '    chunk 1 (diff line 1 @@ class A / @@   def g():): NOT FOUND — its @@ anchor "  def g():" was not found after line 1.',
    );
  });

  it('refuses a create diff that holds a file marker, and a create diff line without "+"', async () => {
    const add = await run({}, [{ kind: 'add', path: 'new.txt', diff: '+x\n*** Add File: other.txt\n+y\n' }]);
    expect(add.result.output).toBe(
      'Error [patch_parse_error]: Nothing was changed: *** Add File: new.txt: line 2 of the diff: "*** Add File: other.txt" is a patch file marker; this diff may only create new.txt. Send each file as its own operation; to write such a line into the file, prefix it with "+".',
    );
    expect(add.files).toEqual({});
    const plain = await run({}, [{ kind: 'add', path: 'new.txt', diff: '+x\nplain\n' }], OPENAI_NATIVE_VOCABULARY);
    expect(plain.result.output).toBe(
      'Error [patch_parse_error]: Nothing was changed: create_file new.txt: line 2 of the diff: expected a line starting with "+" in the content of new.txt, got "plain". Every line of a created file starts with "+" (an empty line is a bare "+").',
    );
  });

  it('is all or nothing across operations: a later refusal writes none of the earlier ones', async () => {
    const files = { 'a.txt': 'one\n' };
    const { result, files: after } = await run(files, [
      { kind: 'add', path: 'b.txt', content: 'b' },
      { kind: 'replace', path: 'a.txt', oldText: 'missing', newText: 'x' },
    ]);
    expect(result.error?.code).toBe('patch_context_not_found');
    expect(after).toEqual(files);
  });

  it.each([
    [[], 'Error [invalid_arguments]: give at least one file operation.'],
    [
      [{ kind: 'rename', path: 'a' }],
      'Error [invalid_arguments]: unknown file operation kind "rename"; use add, delete, update, replace or insert.',
    ],
    [[{ kind: 'add', path: '' }], 'Error [invalid_arguments]: path must be a non-empty string.'],
    [[{ kind: 'add', path: 'a' }], 'Error [invalid_arguments]: *** Add File: a: give the content (string) or a diff (string).'],
    [
      [{ kind: 'update', path: 'a', chunks: [{ lines: 'x' }] }],
      'Error [invalid_arguments]: *** Update File: a: give the chunks or a diff (string).',
    ],
    [
      [{ kind: 'delete', path: 'a\n*** Delete File: b' }],
      'Error [outside_workspace]: path "a\\n*** Delete File: b" contains a NUL or control character',
    ],
    [
      [{ kind: 'update', path: 'a', moveTo: ' b', diff: '@@\n-a\n+b' }],
      'Error [invalid_arguments]: path " b" starts or ends with whitespace; file names with surrounding whitespace are not supported: send the path without it.',
    ],
    [
      [{ kind: 'insert', path: 'a', afterLine: 1.5, text: 'x' }],
      'Error [invalid_arguments]: an insert operation needs afterLine (integer) and text (string).',
    ],
    [[null], 'Error [invalid_arguments]: each file operation must be an object with a kind and a path.'],
  ])('refuses malformed operations %j with a clear message, changing nothing', async (operations, output) => {
    const files = { a: 'a\n', b: 'b\n' };
    const { result, files: after } = await run(files, operations);
    expect(result.output).toBe(output);
    expect(after).toEqual(files);
  });
});

describe('text edits', () => {
  it('replaces exactly the matched bytes, keeping an unterminated last line and the BOM', async () => {
    const { bytes } = await run(
      { 'a.txt': '\ufeffalpha beta\ngamma' },
      [{ kind: 'replace', path: 'a.txt', oldText: 'gam', newText: 'GAM' }],
      ANTHROPIC_NATIVE_VOCABULARY,
    );
    expect(await bytes('a.txt')).toBe('\ufeffalpha beta\nGAMma');
  });

  it('matches LF text in a CRLF file and writes its line breaks as CRLF', async () => {
    const { files } = await run({ 'a.txt': 'one\r\ntwo\r\nthree\r\n' }, [
      { kind: 'replace', path: 'a.txt', oldText: 'one\ntwo', newText: '1\n2\n2b' },
    ]);
    expect(files).toEqual({ 'a.txt': '1\r\n2\r\n2b\r\nthree\r\n' });
  });

  it('refuses a replacement found zero or several times, in the text editor words', async () => {
    const files = { 'a.txt': 'x\ny\nx\n' };
    const none = await run(files, [{ kind: 'replace', path: 'a.txt', oldText: 'z', newText: 'q' }], ANTHROPIC_NATIVE_VOCABULARY);
    expect(none.result.output).toBe(
      'Error [patch_context_not_found]: No replacement was performed: old_str did not appear verbatim in a.txt. View the file and copy the text exactly, whitespace included.',
    );
    const many = await run(files, [{ kind: 'replace', path: 'a.txt', oldText: 'x', newText: 'q' }], ANTHROPIC_NATIVE_VOCABULARY);
    expect(many.result.output).toBe(
      'Error [patch_ambiguous]: No replacement was performed: old_str appears 2 times in a.txt, at lines 1, 3. Include more surrounding lines so it matches exactly once.',
    );
    expect(many.files).toEqual(files);
  });

  it('replaces the text at a given offset exactly as given, and refuses when the file no longer holds it there', async () => {
    const files = { 'a.txt': '\ufeffx\r\nx\nx' };
    const at = await run(files, [{ kind: 'replace', path: 'a.txt', oldText: 'x\n', newText: 'y\n\n', at: 3 }], ANTHROPIC_NATIVE_VOCABULARY);
    expect(await at.bytes('a.txt')).toBe('\ufeffx\r\ny\n\nx');
    expect((await run({ e: '' }, [{ kind: 'replace', path: 'e', oldText: '', newText: 'new', at: 0 }])).files).toEqual({ e: 'new' });
    const moved = await run(files, [{ kind: 'replace', path: 'a.txt', oldText: 'x\n', newText: 'y', at: 2 }], ANTHROPIC_NATIVE_VOCABULARY);
    expect(moved.result.output).toBe(
      'Error [patch_context_not_found]: No replacement was performed: a.txt changed since it was read; view it again and send the command again.',
    );
    expect(moved.files).toEqual({ 'a.txt': 'x\r\nx\nx' });
    const negative = await run(files, [{ kind: 'replace', path: 'a.txt', oldText: '', newText: 'y', at: -1 }]);
    expect(negative.result.output).toBe('Error [invalid_arguments]: the at of a replace operation must be an offset (integer, 0 or more).');
  });

  it('inserts whole lines in the file line ending, keeping a file without a final line ending without one', async () => {
    expect((await run({ a: 'one\r\ntwo\r\n' }, [{ kind: 'insert', path: 'a', afterLine: 1, text: 'x\ny\n' }])).files).toEqual({
      a: 'one\r\nx\r\ny\r\ntwo\r\n',
    });
    expect((await run({ a: 'one\ntwo' }, [{ kind: 'insert', path: 'a', afterLine: 2, text: 'end' }])).files).toEqual({
      a: 'one\ntwo\nend',
    });
    expect((await run({ a: 'one\n' }, [{ kind: 'insert', path: 'a', afterLine: 0, text: '' }])).files).toEqual({ a: '\none\n' });
    const outside = await run({ a: 'one\n' }, [{ kind: 'insert', path: 'a', afterLine: 3, text: 'x' }], ANTHROPIC_NATIVE_VOCABULARY);
    expect(outside.result.output).toBe('Error [invalid_arguments]: insert_line 3 is outside the file, which has 1 lines: use 0..1.');
  });

  it('refuses create over an existing file with the reference editor wording', async () => {
    const { result, files } = await run({ 'a.txt': 'keep' }, [{ kind: 'add', path: 'a.txt', content: 'new' }], ANTHROPIC_NATIVE_VOCABULARY);
    expect(result.output).toBe(
      'Error [patch_target_exists]: File already exists at: a.txt. Cannot overwrite files using command `create`.',
    );
    expect(files).toEqual({ 'a.txt': 'keep' });
  });
});

describe('texts in the model vocabulary', () => {
  const failing = (vocabulary?: ToolVocabulary) =>
    run({ 'bin.dat': new Uint8Array([0xff, 0xfe, 0x00]) }, [{ kind: 'update', path: 'bin.dat', diff: '@@\n-x\n+y' }], vocabulary);

  it('names the tools the model has', async () => {
    expect((await failing()).result.output).toContain('apply_patch only edits UTF-8 text files; use exec_command for other files.');
    expect((await failing(OPENAI_NATIVE_VOCABULARY)).result.output).toContain('update_file bin.dat: FAILED — bin.dat was not changed');
    expect((await failing(OPENAI_NATIVE_VOCABULARY)).result.output).toContain(
      'use shell for other files.\nFix only what failed (re-read the file with shell if unsure) and send the operation again.',
    );
    expect((await failing({ shell: 'run', edit: 'edit_files', edits: 'patch' })).result.output).toContain(
      'edit_files only edits UTF-8 text files; use run for other files.',
    );
  });

  it('keeps the apply_patch text path and its patch line numbers as they were', async () => {
    const workspace = createMemoryWorkspace({ 'a.txt': 'one\n' });
    const result = await applyPatch(workspace, '*** Begin Patch\n*** Update File: a.txt\n@@\n-two\n+2\n*** End Patch', {
      locks: new PathLocks(),
    });
    expect(result.output).toContain('*** Update File: a.txt: FAILED\n    chunk 1 (patch line 3): NOT FOUND');
    expect(result.output).toContain('Fix only what failed (re-read the file with exec_command if unsure) and send the whole patch again.');
  });
});
