import { describe, expect, it } from 'vitest';
import { createFakeToolHost } from '@toolhost/testing';
import { runTextEditor } from './text-editor.js';
import { ANTHROPIC_TEXT_EDITOR_VERSIONS, hasUndoEdit, type AnthropicTextEditorVersion } from './text-editor-versions.js';

// Cases ported from anthropics/anthropic-quickstarts, computer-use-demo/tests/tools/edit_test.py (run there for the
// str_replace_editor versions, here for every version); inputs and expected outputs are the reference's, with its
// absolute paths under the fake host's root /test (its /nonexistent/file.txt is /test/nonexistent/file.txt: outside the
// workspace a path is refused before its existence is checked).

const linux = { platform: 'linux', env: {} };

function editorOn(files: Record<string, string>, version: AnthropicTextEditorVersion) {
  const host = createFakeToolHost({ environment: linux, root: '/test', files, verification: { threshold: Infinity } });
  const run = async (input: Record<string, unknown>) => {
    const result = await runTextEditor(host, input, { version });
    return { ok: result.ok, output: result.output };
  };
  return { host, run };
}

describe.each(ANTHROPIC_TEXT_EDITOR_VERSIONS)('edit_test.py on %s', (version) => {
  it('test_view_command: a file, a folder, a range, a bad range, a missing path, a folder with a range', async () => {
    const { run } = editorOn(
      { 'file.txt': 'File content', 'lines.txt': 'Line 1\nLine 2\nLine 3\nLine 4', 'dir/file1.txt': '', 'dir/file2.txt': '' },
      version,
    );
    const file = await run({ command: 'view', path: '/test/file.txt' });
    expect(file).toEqual({ ok: true, output: "Here's the result of running `cat -n` on /test/file.txt:\n     1\tFile content\n" });
    const folder = await run({ command: 'view', path: '/test/dir' });
    expect(folder.output).toContain('file1.txt');
    expect(folder.output).toContain('file2.txt');
    const range = await run({ command: 'view', path: '/test/lines.txt', view_range: [2, 3] });
    expect(range.output).toContain('\n     2\tLine 2\n     3\tLine 3\n');
    const badRange = await run({ command: 'view', path: '/test/lines.txt', view_range: [3, 2] });
    expect(badRange).toEqual({
      ok: false,
      output:
        'Error [invalid_arguments]: Invalid `view_range`: [3, 2]. Its second element `2` should be larger or equal than its first `3`',
    });
    expect((await run({ command: 'view', path: '/test/nonexistent/file.txt' })).output).toMatch(/does not exist/);
    expect((await run({ command: 'view', path: '/test/dir', view_range: [1, 2] })).output).toBe(
      'Error [invalid_arguments]: The `view_range` parameter is not allowed when `path` points to a directory.',
    );
  });

  it('test_create_command: a new file with its content, no file_text, an existing file', async () => {
    const { host, run } = editorOn({ 'existingfile.txt': 'x' }, version);
    expect(await run({ command: 'create', path: '/test/newfile.txt', file_text: 'New file content' })).toEqual({
      ok: true,
      output: 'File created successfully at: /test/newfile.txt',
    });
    expect(host.files()['newfile.txt']).toBe('New file content');
    expect((await run({ command: 'create', path: '/test/newfile2.txt' })).output).toBe(
      'Error [invalid_arguments]: Parameter `file_text` is required for command: create',
    );
    expect((await run({ command: 'create', path: '/test/existingfile.txt', file_text: 'Content' })).output).toBe(
      'Error [patch_target_exists]: File already exists at: /test/existingfile.txt. Cannot overwrite files using command `create`.',
    );
  });

  it('test_str_replace_command: a unique string, a missing one, one found several times on one line', async () => {
    const { host, run } = editorOn({ 'file.txt': 'Original content', 'test.txt': 'Test test test' }, version);
    const replaced = await run({ command: 'str_replace', path: '/test/file.txt', old_str: 'Original', new_str: 'New' });
    expect(replaced.output).toBe(
      "The file /test/file.txt has been edited. Here's the result of running `cat -n` on a snippet of /test/file.txt:\n     1\tNew content\nReview the changes and make sure they are as expected. Edit the file again if necessary.",
    );
    expect(host.files()['file.txt']).toBe('New content');
    expect((await run({ command: 'str_replace', path: '/test/file.txt', old_str: 'Nonexistent', new_str: 'New' })).output).toBe(
      'Error [patch_context_not_found]: No replacement was performed, old_str `Nonexistent` did not appear verbatim in /test/file.txt.',
    );
    // The reference lists the lines that hold old_str: two matches on line 1 are "lines [1]".
    expect((await run({ command: 'str_replace', path: '/test/test.txt', old_str: 'test', new_str: 'example' })).output).toBe(
      'Error [patch_ambiguous]: No replacement was performed. Multiple occurrences of old_str `test` in lines [1]. Please ensure it is unique',
    );
    expect(host.files()['test.txt']).toBe('Test test test');
  });

  it('test_insert_command: after a line, at the top, at the end, outside the file', async () => {
    const { host, run } = editorOn(
      { 'three.txt': 'Line 1\nLine 2\nLine 3', 'top.txt': 'Line 1\nLine 2', 'end.txt': 'Line 1\nLine 2' },
      version,
    );
    const after = await run({ command: 'insert', path: '/test/three.txt', insert_line: 2, new_str: 'New Line' });
    expect(after.output).toBe(
      "The file /test/three.txt has been edited. Here's the result of running `cat -n` on a snippet of the edited file:\n     1\tLine 1\n     2\tLine 2\n     3\tNew Line\n     4\tLine 3\nReview the changes and make sure they are as expected (correct indentation, no duplicate lines, etc). Edit the file again if necessary.",
    );
    expect((await run({ command: 'insert', path: '/test/top.txt', insert_line: 0, new_str: 'New First Line' })).ok).toBe(true);
    expect((await run({ command: 'insert', path: '/test/end.txt', insert_line: 2, new_str: 'New Last Line' })).ok).toBe(true);
    expect((await run({ command: 'insert', path: '/test/end.txt', insert_line: 5, new_str: 'Invalid Line' })).output).toBe(
      'Error [invalid_arguments]: Invalid `insert_line` parameter: 5. It should be within the range of lines of the file: [0, 3]',
    );
    expect(host.files()).toEqual({
      'three.txt': 'Line 1\nLine 2\nNew Line\nLine 3',
      'top.txt': 'New First Line\nLine 1\nLine 2',
      'end.txt': 'Line 1\nLine 2\nNew Last Line',
    });
  });

  it('test_undo_edit_command and the history tests: a str_replace and an insert undone, no history left', async () => {
    const { host, run } = editorOn({ 'file.txt': 'Original content', 'lines.txt': 'Line 1\nLine 2' }, version);
    await run({ command: 'str_replace', path: '/test/file.txt', old_str: 'Original', new_str: 'New' });
    await run({ command: 'insert', path: '/test/lines.txt', insert_line: 1, new_str: 'New Line' });
    const undone = await run({ command: 'undo_edit', path: '/test/file.txt' });
    if (!hasUndoEdit(version)) {
      // text_editor_20250429 and later have no undo_edit (computer_use_demo's EditTool20250429).
      expect(undone.output).toBe(
        'Error [invalid_arguments]: Unrecognized command undo_edit. The allowed commands for the str_replace_based_edit_tool tool are: view, create, str_replace, insert',
      );
      expect(host.files()['file.txt']).toBe('New content');
      return;
    }
    expect(undone).toEqual({
      ok: true,
      output:
        "Last edit to /test/file.txt undone successfully. Here's the result of running `cat -n` on /test/file.txt:\n     1\tOriginal content\n",
    });
    expect((await run({ command: 'undo_edit', path: '/test/lines.txt' })).output).toMatch(
      /^Last edit to \/test\/lines.txt undone successfully/,
    );
    expect(host.files()).toEqual({ 'file.txt': 'Original content', 'lines.txt': 'Line 1\nLine 2' });
    expect((await run({ command: 'undo_edit', path: '/test/file.txt' })).output).toBe(
      'Error [tool_failed]: No edit history found for /test/file.txt.',
    );
  });

  it('test_validate_path: a missing path, create over a file, a folder for str_replace, a folder for view', async () => {
    const { run } = editorOn({ 'existing/file.txt': 'x', 'directory/path/a.txt': 'a' }, version);
    expect((await run({ command: 'view', path: '/test/nonexistent/file.txt' })).output).toBe(
      'Error [tool_failed]: The path /test/nonexistent/file.txt does not exist. Please provide a valid path.',
    );
    expect((await run({ command: 'create', path: '/test/existing/file.txt', file_text: 'y' })).output).toMatch(/File already exists/);
    expect((await run({ command: 'create', path: '/test/directory/path', file_text: 'y' })).output).toMatch(/File already exists/);
    expect((await run({ command: 'str_replace', path: '/test/directory/path', old_str: 'a', new_str: 'b' })).output).toBe(
      'Error [tool_failed]: The path /test/directory/path is a directory and only the `view` command can be used on directories',
    );
    expect((await run({ command: 'view', path: '/test/directory/path' })).output).toBe(
      "Here's the files and directories up to 2 levels deep in /test/directory/path, excluding hidden items and node_modules:\n/test/directory/path\n/test/directory/path/a.txt\n\n",
    );
    // Deviation (workspace-relative paths): the reference refuses a relative path ("not an absolute path"); toolhost
    // resolves it against the workspace.
    expect((await run({ command: 'view', path: 'existing/file.txt' })).output).toBe(
      "Here's the result of running `cat -n` on existing/file.txt:\n     1\tx\n",
    );
  });
});
