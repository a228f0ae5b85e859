// Cases of Codex's apply-patch crate (github.com/openai/codex, codex-rs/apply-patch), rewritten as vitest cases. Each
// title names its source: parser.rs, lib.rs or seek_sequence.rs, and the Rust test it comes from. Inputs and expected
// outcomes are the reference's; where toolhost deliberately differs, the case says which deviation and asserts
// toolhost's behaviour (the deviations are listed in the README's "Deviations from the reference tools" table).
import { describe, expect, it } from 'vitest';
import { createMemoryWorkspace } from '@toolhost/core';
import { applyPatch } from './apply-patch.js';
import { LineMatcher } from './line-matcher.js';
import { parsePatch } from './parse-patch.js';
import type { PatchOperation } from './patch-syntax.js';
import { splitLines } from './text-document.js';

/** A parsed operation in the reference's terms: Hunk::AddFile / DeleteFile / UpdateFile with UpdateFileChunk fields. */
type ReferenceHunk =
  | { add: string; contents: string }
  | { delete: string }
  | {
      update: string;
      movePath?: string;
      chunks: { changeContext?: string; oldLines: string[]; newLines: string[]; isEndOfFile: boolean }[];
    };

function asReference(operation: PatchOperation): ReferenceHunk {
  switch (operation.kind) {
    case 'add':
      return { add: operation.path, contents: operation.content };
    case 'delete':
      return { delete: operation.path };
    case 'update':
      return {
        update: operation.path,
        ...(operation.moveTo === undefined ? {} : { movePath: operation.moveTo }),
        chunks: operation.chunks.map((chunk) => ({
          ...(chunk.anchors.length > 0 ? { changeContext: chunk.anchors.join('\n') } : {}),
          oldLines: chunk.lines.filter((line) => line.kind !== '+').map((line) => line.text),
          newLines: chunk.lines.filter((line) => line.kind !== '-').map((line) => line.text),
          isEndOfFile: chunk.endOfFile,
        })),
      };
    default:
      throw new Error(`not a patch operation: ${operation.kind}`);
  }
}

function hunks(text: string): ReferenceHunk[] {
  const parsed = parsePatch(text);
  if (!parsed.ok) throw new Error(`expected the patch to parse, got: ${parsed.message}`);
  return parsed.patch.operations.map(asReference);
}

function refusal(text: string): { line: number; message: string } {
  const parsed = parsePatch(text);
  if (parsed.ok) throw new Error(`expected a refusal, got ${JSON.stringify(parsed.patch.operations.map(asReference))}`);
  return parsed;
}

const wrap = (body: string) => `*** Begin Patch\n${body}\n*** End Patch`;

async function apply(files: Record<string, string>, patch: string) {
  const workspace = createMemoryWorkspace(files);
  const result = await applyPatch(workspace, patch);
  return { result, files: workspace.snapshot(), text: result.ok ? result.output : (result.error?.message ?? '') };
}

describe('Codex apply-patch parser.rs cases', () => {
  it('test_parse_patch: "bad" is refused: the first line must be "*** Begin Patch"', () => {
    expect(refusal('bad').message).toContain('expected "*** Begin Patch" as the first line');
  });

  it('test_parse_patch: "*** Begin Patch\\nbad" is refused: the last line must be "*** End Patch"', () => {
    expect(refusal('*** Begin Patch\nbad').message).toContain('expected "*** End Patch" as the last line');
  });

  it('test_parse_patch: markers padded with spaces parse (Add File foo with "hi\\n")', () => {
    expect(hunks('*** Begin Patch \n*** Add File: foo\n+hi\n *** End Patch')).toEqual([{ add: 'foo', contents: 'hi\n' }]);
  });

  it('test_parse_patch: an Update File with no chunks is refused at its header line (line 2)', () => {
    const refused = refusal('*** Begin Patch\n*** Update File: test.py\n*** End Patch');
    expect(refused.line).toBe(2);
    expect(refused.message).toContain('"*** Update File: test.py" has no chunks');
  });

  it('test_parse_patch: a patch with no operations is refused (the reference parses it, then refuses it: "No files were modified.")', async () => {
    expect(refusal('*** Begin Patch\n*** End Patch').message).toContain('the patch has no file operations');
    const { result, files } = await apply({ 'foo.txt': 'stable\n' }, '*** Begin Patch\n*** End Patch');
    expect(result.ok).toBe(false);
    expect(files).toEqual({ 'foo.txt': 'stable\n' });
  });

  it('test_parse_patch: Add, Delete and Update with Move to and an @@ context line', () => {
    expect(
      hunks(
        wrap(
          [
            '*** Add File: path/add.py',
            '+abc',
            '+def',
            '*** Delete File: path/delete.py',
            '*** Update File: path/update.py',
            '*** Move to: path/update2.py',
            '@@ def f():',
            '-    pass',
            '+    return 123',
          ].join('\n'),
        ),
      ),
    ).toEqual([
      { add: 'path/add.py', contents: 'abc\ndef\n' },
      { delete: 'path/delete.py' },
      {
        update: 'path/update.py',
        movePath: 'path/update2.py',
        chunks: [{ changeContext: 'def f():', oldLines: ['    pass'], newLines: ['    return 123'], isEndOfFile: false }],
      },
    ]);
  });

  it('test_parse_patch: an Update hunk followed by an Add File hunk', () => {
    expect(hunks(wrap('*** Update File: file.py\n@@\n+line\n*** Add File: other.py\n+content'))).toEqual([
      { update: 'file.py', chunks: [{ oldLines: [], newLines: ['line'], isEndOfFile: false }] },
      { add: 'other.py', contents: 'content\n' },
    ]);
  });

  it('test_parse_patch: the first chunk may start without an @@ line', () => {
    expect(hunks(wrap('*** Update File: file2.py\n import foo\n+bar'))).toEqual([
      { update: 'file2.py', chunks: [{ oldLines: ['import foo'], newLines: ['import foo', 'bar'], isEndOfFile: false }] },
    ]);
  });

  it('test_parse_patch_accepts_relative_and_absolute_hunk_paths: the parser keeps both as written', () => {
    expect(
      hunks(
        wrap(
          '*** Add File: relative-add.py\n+content\n*** Delete File: /tmp/dir/absolute-delete.py\n*** Update File: /tmp/dir/absolute-update.py\n@@\n-old\n+new',
        ),
      ),
    ).toEqual([
      { add: 'relative-add.py', contents: 'content\n' },
      { delete: '/tmp/dir/absolute-delete.py' },
      { update: '/tmp/dir/absolute-update.py', chunks: [{ oldLines: ['old'], newLines: ['new'], isEndOfFile: false }] },
    ]);
  });

  it('test_hunk_resolve_path_accepts_relative_and_absolute_paths (deviation: workspace boundary): an absolute path outside the workspace is refused, one inside resolves', async () => {
    const outside = await apply({}, wrap('*** Add File: /tmp/elsewhere/absolute-add.py\n+x'));
    expect(outside.result.ok).toBe(false);
    expect(outside.files).toEqual({});
    const inside = await apply({}, wrap('*** Add File: /workspace/absolute-add.py\n+x\n*** Add File: relative-add.py\n+y'));
    expect(inside.result.ok).toBe(true);
    expect(inside.files).toEqual({ 'absolute-add.py': 'x\n', 'relative-add.py': 'y\n' });
  });

  describe('test_parse_patch_lenient: heredoc wrapper lines inside the patch text', () => {
    const patchText = '*** Begin Patch\n*** Update File: file2.py\n import foo\n+bar\n*** End Patch';
    const expected = [{ update: 'file2.py', chunks: [{ oldLines: ['import foo'], newLines: ['import foo', 'bar'], isEndOfFile: false }] }];

    it.each([
      ['<<EOF', 'EOF'],
      ["<<'EOF'", 'EOF'],
      ['<<"EOF"', 'EOF'],
    ])('%s ... %s is unwrapped', (open, close) => {
      expect(hunks(`${open}\n${patchText}\n${close}\n`)).toEqual(expected);
    });

    it('mismatched quotes <<"EOF\' are refused: the first line must be "*** Begin Patch"', () => {
      expect(refusal(`<<"EOF'\n${patchText}\nEOF\n`).message).toContain('expected "*** Begin Patch" as the first line');
    });

    it('a heredoc whose patch lacks "*** End Patch" is refused: the last line must be "*** End Patch"', () => {
      expect(refusal('<<EOF\n*** Begin Patch\n*** Update File: file2.py\nEOF\n').message).toContain(
        'expected "*** End Patch" as the last line',
      );
    });
  });

  it('test_parse_one_hunk: "bad" is not a valid hunk header', () => {
    const refused = refusal(wrap('bad'));
    expect(refused.line).toBe(2);
    expect(refused.message).toContain('expected a file header');
  });

  describe('test_update_file_chunk', () => {
    it('a later chunk must start with an @@ context marker (reference: "Expected update hunk to start with a @@ context marker, got: \'bad\'")', () => {
      expect(refusal(wrap('*** Update File: a.txt\n@@\n+x\nbad')).message).toContain('expected a chunk line in a.txt');
    });

    it('"@@" alone: "Update hunk does not contain any lines"', () => {
      expect(refusal(wrap('*** Update File: a.txt\n@@')).message).toContain('has no lines');
    });

    it('"@@", "bad": "Unexpected line found in update hunk: \'bad\'"', () => {
      const refused = refusal(wrap('*** Update File: a.txt\n@@\nbad'));
      expect(refused.line).toBe(4);
      expect(refused.message).toContain('got "bad"');
    });

    it('"@@", "*** End of File": "Update hunk does not contain any lines"', () => {
      expect(refusal(wrap('*** Update File: a.txt\n@@\n*** End of File')).message).toContain(
        '"*** End of File" must follow the lines of a chunk',
      );
    });

    it('an empty line is empty context; " context", "-remove", "+add", " context2" before "*** End Patch"', () => {
      expect(hunks(wrap('*** Update File: a.txt\n@@ change_context\n\n context\n-remove\n+add\n context2'))).toEqual([
        {
          update: 'a.txt',
          chunks: [
            {
              changeContext: 'change_context',
              oldLines: ['', 'context', 'remove', 'context2'],
              newLines: ['', 'context', 'add', 'context2'],
              isEndOfFile: false,
            },
          ],
        },
      ]);
    });

    it('"@@", "+line", "*** End of File" marks the chunk as the end of the file', () => {
      expect(hunks(wrap('*** Update File: a.txt\n@@\n+line\n*** End of File'))).toEqual([
        { update: 'a.txt', chunks: [{ oldLines: [], newLines: ['line'], isEndOfFile: true }] },
      ]);
    });
  });

  it('parse_one_hunk: blank lines between chunks are skipped, also after "*** End of File" and before "*** End Patch"', () => {
    expect(hunks('*** Begin Patch\n*** Update File: a.txt\n@@\n x\n-y\n+Y\n*** End of File\n\n*** End Patch')).toEqual([
      { update: 'a.txt', chunks: [{ oldLines: ['x', 'y'], newLines: ['x', 'Y'], isEndOfFile: true }] },
    ]);
    expect(hunks(wrap('*** Update File: a.txt\n\n@@\n-a\n+A\n*** End of File\n\n\n@@\n-b\n+B'))).toEqual([
      {
        update: 'a.txt',
        chunks: [
          { oldLines: ['a'], newLines: ['A'], isEndOfFile: true },
          { oldLines: ['b'], newLines: ['B'], isEndOfFile: false },
        ],
      },
    ]);
  });

  it('test_parse_patch_streaming_large_patch_by_character: the complete patch parses to its seven hunks', () => {
    const patch = [
      '*** Begin Patch',
      '*** Add File: docs/release-notes.md',
      '+# Release notes',
      '+',
      '+## CLI',
      '+- Surface apply_patch progress while arguments stream.',
      '+- Keep final patch application gated on the completed tool call.',
      '+- Include file summaries in the progress event payload.',
      '*** Update File: src/config.rs',
      '@@ impl Config',
      '-    pub apply_patch_progress: bool,',
      '+    pub stream_apply_patch_progress: bool,',
      '     pub include_diagnostics: bool,',
      '@@ fn default_progress_interval()',
      '-    Duration::from_millis(500)',
      '+    Duration::from_millis(250)',
      '*** Delete File: src/legacy_patch_progress.rs',
      '*** Update File: crates/cli/src/main.rs',
      '*** Move to: crates/cli/src/bin/codex.rs',
      '@@ fn run()',
      '-    let args = Args::parse();',
      '-    dispatch(args)',
      '+    let cli = Cli::parse();',
      '+    dispatch(cli)',
      '*** Add File: tests/fixtures/apply_patch_progress.json',
      '+{',
      '+  "type": "apply_patch_progress",',
      '+  "hunks": [',
      '+    { "operation": "add", "path": "docs/release-notes.md" },',
      '+    { "operation": "update", "path": "src/config.rs" }',
      '+  ]',
      '+}',
      '*** Update File: README.md',
      '@@ Development workflow',
      ' Build the Rust workspace before opening a pull request.',
      '+When touching streamed tool calls, include parser coverage for partial input.',
      '+Prefer tests that exercise the exact event payload shape.',
      '*** Delete File: docs/old-apply-patch-progress.md',
      '*** End Patch',
    ].join('\n');
    expect(hunks(patch)).toEqual([
      {
        add: 'docs/release-notes.md',
        contents:
          '# Release notes\n\n## CLI\n- Surface apply_patch progress while arguments stream.\n- Keep final patch application gated on the completed tool call.\n- Include file summaries in the progress event payload.\n',
      },
      {
        update: 'src/config.rs',
        chunks: [
          {
            changeContext: 'impl Config',
            oldLines: ['    pub apply_patch_progress: bool,', '    pub include_diagnostics: bool,'],
            newLines: ['    pub stream_apply_patch_progress: bool,', '    pub include_diagnostics: bool,'],
            isEndOfFile: false,
          },
          {
            changeContext: 'fn default_progress_interval()',
            oldLines: ['    Duration::from_millis(500)'],
            newLines: ['    Duration::from_millis(250)'],
            isEndOfFile: false,
          },
        ],
      },
      { delete: 'src/legacy_patch_progress.rs' },
      {
        update: 'crates/cli/src/main.rs',
        movePath: 'crates/cli/src/bin/codex.rs',
        chunks: [
          {
            changeContext: 'fn run()',
            oldLines: ['    let args = Args::parse();', '    dispatch(args)'],
            newLines: ['    let cli = Cli::parse();', '    dispatch(cli)'],
            isEndOfFile: false,
          },
        ],
      },
      {
        add: 'tests/fixtures/apply_patch_progress.json',
        contents:
          '{\n  "type": "apply_patch_progress",\n  "hunks": [\n    { "operation": "add", "path": "docs/release-notes.md" },\n    { "operation": "update", "path": "src/config.rs" }\n  ]\n}\n',
      },
      {
        update: 'README.md',
        chunks: [
          {
            changeContext: 'Development workflow',
            oldLines: ['Build the Rust workspace before opening a pull request.'],
            newLines: [
              'Build the Rust workspace before opening a pull request.',
              'When touching streamed tool calls, include parser coverage for partial input.',
              'Prefer tests that exercise the exact event payload shape.',
            ],
            isEndOfFile: false,
          },
        ],
      },
      { delete: 'docs/old-apply-patch-progress.md' },
    ]);
  });
});

describe('Codex apply-patch lib.rs cases', () => {
  it('test_literal: a patch with a trailing newline after "*** End Patch" parses', () => {
    expect(hunks('*** Begin Patch\n*** Add File: foo\n+hi\n*** End Patch\n')).toEqual([{ add: 'foo', contents: 'hi\n' }]);
  });

  it("test_heredoc: apply_patch <<'PATCH' ... PATCH (the reference takes the heredoc body from a shell command)", () => {
    expect(hunks("apply_patch <<'PATCH'\n*** Begin Patch\n*** Add File: foo\n+hi\n*** End Patch\nPATCH")).toEqual([
      { add: 'foo', contents: 'hi\n' },
    ]);
  });

  it('test_add_file_hunk_creates_file_with_contents', async () => {
    const { result, files, text } = await apply({}, wrap('*** Add File: add.txt\n+ab\n+cd'));
    expect(result.ok).toBe(true);
    expect(text).toBe('Success. Updated the following files:\nA add.txt\n');
    expect(files).toEqual({ 'add.txt': 'ab\ncd\n' });
  });

  it('test_delete_file_hunk_removes_file', async () => {
    const { files, text } = await apply({ 'del.txt': 'x' }, wrap('*** Delete File: del.txt'));
    expect(text).toBe('Success. Updated the following files:\nD del.txt\n');
    expect(files).toEqual({});
  });

  it('test_update_file_hunk_modifies_content', async () => {
    const { files, text } = await apply({ 'update.txt': 'foo\nbar\n' }, wrap('*** Update File: update.txt\n@@\n foo\n-bar\n+baz'));
    expect(text).toBe('Success. Updated the following files:\nM update.txt\n');
    expect(files).toEqual({ 'update.txt': 'foo\nbaz\n' });
  });

  it('test_update_file_hunk_can_move_file', async () => {
    const { files, text } = await apply({ 'src.txt': 'line\n' }, wrap('*** Update File: src.txt\n*** Move to: dst.txt\n@@\n-line\n+line2'));
    expect(text).toBe('Success. Updated the following files:\nM dst.txt\n');
    expect(files).toEqual({ 'dst.txt': 'line2\n' });
  });

  it('test_multiple_update_chunks_apply_to_single_file', async () => {
    const { files, text } = await apply(
      { 'multi.txt': 'foo\nbar\nbaz\nqux\n' },
      wrap('*** Update File: multi.txt\n@@\n foo\n-bar\n+BAR\n@@\n baz\n-qux\n+QUX'),
    );
    expect(text).toBe('Success. Updated the following files:\nM multi.txt\n');
    expect(files).toEqual({ 'multi.txt': 'foo\nBAR\nbaz\nQUX\n' });
  });

  it('test_update_file_hunk_interleaved_changes', async () => {
    const { files } = await apply(
      { 'interleaved.txt': 'a\nb\nc\nd\ne\nf\n' },
      wrap('*** Update File: interleaved.txt\n@@\n a\n-b\n+B\n@@\n c\n d\n-e\n+E\n@@\n f\n+g\n*** End of File'),
    );
    expect(files).toEqual({ 'interleaved.txt': 'a\nB\nc\nd\nE\nf\ng\n' });
  });

  it('test_preserve_crlf_line_endings_on_update: CRLF stays CRLF, new lines take it', async () => {
    const { files } = await apply(
      { 'crlf.txt': 'a\r\nb\r\nc\r\n' },
      wrap('*** Update File: crlf.txt\n@@\n a\n-b\n+B\n@@\n c\n+d\n*** End of File'),
    );
    expect(files).toEqual({ 'crlf.txt': 'a\r\nB\r\nc\r\nd\r\n' });
  });

  it('test_preserve_crlf_embedded_carriage_returns_on_append: a carriage return inside a line is kept', async () => {
    const { files } = await apply(
      { 'crlf_cr_content.txt': 'foo\r\r\nbar\r\n' },
      wrap('*** Update File: crlf_cr_content.txt\n@@\n+BAZ\n*** End of File'),
    );
    expect(files).toEqual({ 'crlf_cr_content.txt': 'foo\r\r\nbar\r\nBAZ\r\n' });
  });

  it('test_pure_addition_chunk_followed_by_removal: a chunk of only added lines without an anchor goes to the end', async () => {
    const { files } = await apply(
      { 'panic.txt': 'line1\nline2\nline3\n' },
      wrap('*** Update File: panic.txt\n@@\n+after-context\n+second-line\n@@\n line1\n-line2\n-line3\n+line2-replacement'),
    );
    expect(files).toEqual({ 'panic.txt': 'line1\nline2-replacement\nafter-context\nsecond-line\n' });
  });

  it('test_update_line_with_unicode_dash: ASCII hyphens in the patch match EN DASH and NON-BREAKING HYPHEN in the file', async () => {
    const { files, text } = await apply(
      { 'unicode.py': 'import asyncio  # local import \u2013 avoids top\u2011level dep\n' },
      wrap('*** Update File: unicode.py\n@@\n-import asyncio  # local import - avoids top-level dep\n+import asyncio  # HELLO'),
    );
    expect(text).toBe('Success. Updated the following files:\nM unicode.py\n');
    expect(files).toEqual({ 'unicode.py': 'import asyncio  # HELLO\n' });
  });

  it.each([
    ['test_unified_diff', 'foo\nbar\nbaz\nqux\n', '@@\n foo\n-bar\n+BAR\n@@\n baz\n-qux\n+QUX', 'foo\nBAR\nbaz\nQUX\n'],
    ['test_unified_diff_first_line_replacement', 'foo\nbar\nbaz\n', '@@\n-foo\n+FOO\n bar\n', 'FOO\nbar\nbaz\n'],
    ['test_unified_diff_last_line_replacement', 'foo\nbar\nbaz\n', '@@\n foo\n bar\n-baz\n+BAZ\n', 'foo\nbar\nBAZ\n'],
    ['test_derive_new_contents_lf_trailing_newline', 'foo\nbar\n', '@@\n foo\n-bar\n+BAR\n', 'foo\nBAR\n'],
    ['test_unified_diff_insert_at_eof', 'foo\nbar\nbaz\n', '@@\n+quux\n*** End of File\n', 'foo\nbar\nbaz\nquux\n'],
    [
      'test_unified_diff_interleaved_changes',
      'a\nb\nc\nd\ne\nf\n',
      '@@\n a\n-b\n+B\n@@\n d\n-e\n+E\n@@\n f\n+g\n*** End of File',
      'a\nB\nc\nd\nE\nf\ng\n',
    ],
    [
      'test_apply_patch_should_resolve_absolute_paths_in_cwd',
      'session directory content\n',
      '@@\n-session directory content\n+updated session directory content',
      'updated session directory content\n',
    ],
  ])('%s: the new content', async (_name, before, body, after) => {
    const { files } = await apply({ 'file.txt': before }, wrap(`*** Update File: file.txt\n${body}`));
    expect(files).toEqual({ 'file.txt': after });
  });

  it('compute_replacements: a chunk ending in a blank line that is not found is retried once without it (checked against the codex 0.169.0 binary)', async () => {
    const { files } = await apply({ 'q.txt': 'a\n\nb\n' }, '*** Begin Patch\n*** Update File: q.txt\n@@\n+x\n\n*** End Patch');
    expect(files).toEqual({ 'q.txt': 'a\nx\n\nb\n' });
  });

  it('compute_replacements, pure addition after an @@ context line (deviation: toolhost placement): inserted after the context line, where the reference appends at the end', async () => {
    const { files } = await apply({ 'r.txt': 'def f():\n  pass\nx\n' }, wrap('*** Update File: r.txt\n@@ def f():\n+  added'));
    expect(files).toEqual({ 'r.txt': 'def f():\n  added\n  pass\nx\n' });
  });

  it('seek_sequence with eof: a chunk marked *** End of File is found only at the end of the file', async () => {
    const { result, files } = await apply({ 'e.txt': 'a\nb\nc\n' }, wrap('*** Update File: e.txt\n@@\n-a\n+A\n*** End of File'));
    expect(result.ok).toBe(false);
    expect(files).toEqual({ 'e.txt': 'a\nb\nc\n' });
  });

  it('test_apply_patch_fails_on_write_error (deviation: all or nothing): a failing operation leaves every file as it was', async () => {
    const { result, files } = await apply(
      { 'keep.txt': 'keep\n' },
      wrap('*** Add File: created.txt\n+hello\n*** Update File: missing.txt\n@@\n-old\n+new'),
    );
    expect(result.ok).toBe(false);
    expect(files).toEqual({ 'keep.txt': 'keep\n' });
  });
});

describe('Codex apply-patch seek_sequence.rs cases (through the line matcher)', () => {
  const lines = (...texts: string[]) => splitLines(texts.map((text) => `${text}\n`).join(''));
  const seek = (file: string[], pattern: string[]) => {
    const matcher = new LineMatcher(lines(...file));
    for (const pass of [0, 1, 2, 3] as const) {
      const [hit] = matcher.find(pattern, pass, 0, file.length, 1);
      if (hit !== undefined) return hit;
    }
    return undefined;
  };

  it('test_exact_match_finds_sequence', () => {
    expect(seek(['foo', 'bar', 'baz'], ['bar', 'baz'])).toBe(1);
  });

  it('test_rstrip_match_ignores_trailing_whitespace', () => {
    expect(seek(['foo   ', 'bar\t\t'], ['foo', 'bar'])).toBe(0);
  });

  it('test_trim_match_ignores_leading_and_trailing_whitespace', () => {
    expect(seek(['    foo   ', '   bar\t'], ['foo', 'bar'])).toBe(0);
  });

  it('test_pattern_longer_than_input_returns_none', () => {
    expect(seek(['just one line'], ['too', 'many', 'lines'])).toBeUndefined();
  });

  it('the punctuation pass: typographic dashes, quotes and odd spaces match their ASCII forms', () => {
    expect(seek(['say \u201Chi\u201D \u2014 it\u2019s\u00A0ok'], ['say "hi" - it\'s ok'])).toBe(0);
  });
});
