import { describe, expect, it } from 'vitest';
import { createFakeToolHost } from '@toolhost/testing';
import { ToolHostError } from 'toolhost';
import { answerToolUses, toAnthropicTools, type AnthropicToolResultBlock } from './index.js';
import { TRUNCATED_MESSAGE } from './text-editor-output.js';
import { runTextEditor, type TextEditorOptions } from './text-editor.js';
import { ANTHROPIC_TEXT_EDITOR_VERSIONS, textEditorDefinition } from './text-editor-versions.js';

const linux = { platform: 'linux', env: {} };
const text = (result: AnthropicToolResultBlock) => (typeof result.content === 'string' ? result.content : '');

function editorOn(files: Record<string, string | { content: string; mode: number }>, options: TextEditorOptions = {}) {
  const host = createFakeToolHost({ environment: linux, files, verification: { threshold: Infinity } });
  const run = async (input: Record<string, unknown>) => (await runTextEditor(host, input, options)).output;
  const bytes = async (path: string) => Buffer.from(await host.workspace.readFile(path)).toString('utf8');
  return { host, run, bytes };
}

describe('text editor versions', () => {
  it('pins the tool definition of every version, max_characters on text_editor_20250728 only', async () => {
    const host = createFakeToolHost({ profile: 'advanced', shellProfile: 'unix_like', environment: linux });
    const definitions = ANTHROPIC_TEXT_EDITOR_VERSIONS.map((version) =>
      toAnthropicTools(host, { native: true, textEditor: { version } }).find((tool) => tool.name.startsWith('str_replace'))!,
    );
    definitions.push(textEditorDefinition('text_editor_20250728', 20_000));
    await expect(JSON.stringify(definitions, null, 2) + '\n').toMatchFileSnapshot('./__pins__/text-editor.tools.json');
    expect(toAnthropicTools(host, { native: true }).map((tool) => tool.name)).toContain('str_replace_based_edit_tool');
    expect(() => toAnthropicTools(host, { native: true, textEditor: { version: 'text_editor_20250429', maxCharacters: 10 } })).toThrow(
      ToolHostError,
    );
    expect(() => toAnthropicTools(host, { native: true, textEditor: { maxCharacters: 0 } })).toThrow(
      'textEditor.maxCharacters must be a positive integer; got 0.',
    );
  });

  it('answers the editor the caller declared, in its version and with its max_characters, and no other name', async () => {
    const host = createFakeToolHost({ environment: linux, files: { 'a.txt': 'abcdefghij\n' }, verification: { threshold: Infinity } });
    const use = (id: string, name: string, input: Record<string, unknown>) => ({ type: 'tool_use', id, name, input });
    const legacy = toAnthropicTools(host, { native: true, textEditor: { version: 'text_editor_20250124' } });
    const [edited, undone, other] = await answerToolUses(
      [
        use('e', 'str_replace_editor', { command: 'str_replace', path: 'a.txt', old_str: 'abc', new_str: 'ABC' }),
        use('u', 'str_replace_editor', { command: 'undo_edit', path: 'a.txt' }),
        use('o', 'str_replace_based_edit_tool', { command: 'view', path: 'a.txt' }),
      ],
      host,
      { tools: legacy },
    );
    expect([edited.is_error, undone.is_error, other.is_error]).toEqual([undefined, undefined, true]);
    expect(text(other)).toMatch(/^Error \[unknown_tool\]/);
    const newest = toAnthropicTools(host, { native: true, textEditor: { maxCharacters: 4 } });
    const [clipped, noUndo] = await answerToolUses(
      [
        use('v', 'str_replace_based_edit_tool', { command: 'view', path: 'a.txt' }),
        use('n', 'str_replace_based_edit_tool', { command: 'undo_edit', path: 'a.txt' }),
      ],
      host,
      { tools: newest },
    );
    // max_characters cuts the file's text as the reference's maybe_truncate does, before the lines are numbered.
    expect(text(clipped)).toBe(`Here's the result of running \`cat -n\` on a.txt:\n     1\tabcd${TRUNCATED_MESSAGE}\n`);
    expect(text(noUndo)).toBe(
      'Error [invalid_arguments]: Unrecognized command undo_edit. The allowed commands for the str_replace_based_edit_tool tool are: view, create, str_replace, insert',
    );
    // Without the declared tools, both names are answered: str_replace_editor as text_editor_20250124.
    const [undeclared] = await answerToolUses([use('l', 'str_replace_editor', { command: 'view', path: 'a.txt' })], host);
    expect(text(undeclared)).toBe("Here's the result of running `cat -n` on a.txt:\n     1\tabcdefghij\n     2\t\n");
  });

  it('clips a view at 16,000 characters before text_editor_20250728, and shows the whole file there unless max_characters is set', async () => {
    const long = 'x'.repeat(16_010);
    for (const version of ['text_editor_20250429', 'text_editor_20250728'] as const) {
      const { run } = editorOn({ 'long.txt': long }, { version, maxOutputTokens: 50_000 });
      const output = await run({ command: 'view', path: 'long.txt' });
      expect(output).toBe(
        `Here's the result of running \`cat -n\` on long.txt:\n     1\t${version === 'text_editor_20250728' ? long : 'x'.repeat(16_000) + TRUNCATED_MESSAGE}\n`,
      );
    }
  });

  it('pins every command output of every version', async () => {
    for (const version of ANTHROPIC_TEXT_EDITOR_VERSIONS) {
      const { run } = editorOn(
        { 'src/main.go': 'package main\n\nfunc main() {\n\tif ok {\n\t\treturn\n\t}\n}\n', 'src/.hidden': 'h', 'notes.txt': 'a\r\nb\r\n' },
        { version },
      );
      const calls: Array<Record<string, unknown>> = [
        { command: 'view', path: '/workspace' },
        { command: 'view', path: 'src/main.go' },
        { command: 'view', path: 'src/main.go', view_range: [4, -1] },
        { command: 'view', path: 'src/main.go', view_range: [0, 2] },
        { command: 'view', path: 'src/main.go', view_range: [1] },
        { command: 'str_replace', path: 'src/main.go', old_str: '        return', new_str: '        return\n        // done' },
        { command: 'str_replace', path: 'src/main.go', old_str: '}', new_str: '' },
        { command: 'str_replace', path: 'src/main.go', old_str: 'nothing', new_str: '' },
        { command: 'str_replace', path: 'src/main.go' },
        { command: 'insert', path: 'notes.txt', insert_line: 2, new_str: 'c\n' },
        { command: 'insert', path: 'notes.txt', insert_line: 1 },
        { command: 'insert', path: 'notes.txt', new_str: 'x' },
        { command: 'insert', path: 'notes.txt', insert_line: -1, insert_text: 'x' },
        { command: 'create', path: 'new.txt', file_text: 'new\n' },
        { command: 'undo_edit', path: 'notes.txt' },
        { command: 'undo_edit', path: 'notes.txt' },
        { command: 'rename', path: 'notes.txt' },
        { command: 'view', path: 'missing.txt' },
        { command: 'insert', path: 'src', insert_line: 0, new_str: 'x' },
      ];
      let transcript = '';
      for (const call of calls) transcript += `>>> ${JSON.stringify(call)}\n${await run(call)}\n\n`;
      await expect(transcript).toMatchFileSnapshot(`./__pins__/text-editor.${version}.txt`);
    }
  });
});

describe('text editor edits: the reference accepts, toolhost keeps the bytes', () => {
  it('matches old_str typed with spaces where the file has tabs, and writes new_str indented with tabs (deviation: expandtabs)', async () => {
    const { run, bytes } = editorOn({ 'main.go': 'func main() {\n\tif ok {\n\t\treturn 1\n\t}\n}\n' });
    const output = await run({
      command: 'str_replace',
      path: 'main.go',
      old_str: '    return 1\n        }',
      new_str: '    return 2\n        }\n        log()',
    });
    expect(output).toBe(
      "The file main.go has been edited. Here's the result of running `cat -n` on a snippet of main.go:\n     1\tfunc main() {\n     2\t        if ok {\n     3\t                return 2\n     4\t        }\n     5\t        log()\n     6\t}\n     7\t\nReview the changes and make sure they are as expected. Edit the file again if necessary.",
    );
    // The reference writes the whole file with spaces; old_str began 4 columns into the second tab of its line.
    expect(await bytes('main.go')).toBe('func main() {\n\tif ok {\n\t\treturn 2\n\t}\n\tlog()\n}\n');
  });

  it("keeps the file's own tabs matched as tabs, tabs after text, CRLF, a lone LF and the BOM outside the edit", async () => {
    const { run, bytes } = editorOn({ 'a.txt': '\ufeffkey\tvalue\r\nx\ty\nlast\r\n' });
    // The reference expands old_str's tab from its own first column, so "\tvalue" never matches there.
    expect(await run({ command: 'str_replace', path: 'a.txt', old_str: '\tvalue', new_str: '\tVALUE\nmore' })).toMatch(/^The file a.txt/);
    expect(await run({ command: 'str_replace', path: 'a.txt', old_str: 'last', new_str: 'LAST' })).toMatch(/^The file a.txt/);
    expect(await bytes('a.txt')).toBe('\ufeffkey\tVALUE\r\nmore\r\nx\ty\nLAST\r\n');
  });

  it('inserts as the reference splits: a final line break adds an empty line, and after the empty last line appends', async () => {
    const { run, bytes } = editorOn({ 'a.txt': 'one\ntwo\n', 'crlf.txt': '\ufeffone\r\ntwo\r\n', 'tabs.c': 'int f() {\n\treturn 0;\n}\n' });
    await run({ command: 'insert', path: 'a.txt', insert_line: 1, insert_text: 'x\n' });
    expect(await bytes('a.txt')).toBe('one\nx\n\ntwo\n');
    // The reference's view shows the empty line 5 after the final line break; inserting after it appends.
    expect(await run({ command: 'insert', path: 'a.txt', insert_line: 5, insert_text: 'end' })).toBe(
      "The file a.txt has been edited. Here's the result of running `cat -n` on a snippet of the edited file:\n     2\tx\n     3\t\n     4\ttwo\n     5\t\n     6\tend\nReview the changes and make sure they are as expected (correct indentation, no duplicate lines, etc). Edit the file again if necessary.",
    );
    expect(await bytes('a.txt')).toBe('one\nx\n\ntwo\n\nend');
    await run({ command: 'insert', path: 'crlf.txt', insert_line: 1, new_str: 'x' });
    expect(await bytes('crlf.txt')).toBe('\ufeffone\r\nx\r\ntwo\r\n');
    await run({ command: 'insert', path: 'tabs.c', insert_line: 2, new_str: '        log();\n    // aligned' });
    expect(await bytes('tabs.c')).toBe('int f() {\n\treturn 0;\n\tlog();\n    // aligned\n}\n');
  });

  it('reports several matches by the lines they start on, where the reference lists none for a multi-line old_str (deviation)', async () => {
    const { run } = editorOn({ 'a.txt': 'a\nb\na\nb\n' });
    expect(await run({ command: 'str_replace', path: 'a.txt', old_str: 'a\nb', new_str: 'x' })).toBe(
      'Error [patch_ambiguous]: No replacement was performed. Multiple occurrences of old_str `a\nb` in lines [1, 3]. Please ensure it is unique',
    );
  });

  it('undoes edits in order with engine writes that keep the BOM, CRLF and the mode; undoing a create leaves it, as the reference', async () => {
    const { host, run, bytes } = editorOn(
      { 'run.sh': { content: '\ufeff#!/bin/sh\r\n\techo hi\r\n', mode: 0o755 } },
      { version: 'text_editor_20250124' },
    );
    await run({ command: 'str_replace', path: 'run.sh', old_str: 'hi', new_str: 'one' });
    await run({ command: 'insert', path: 'run.sh', insert_line: 2, new_str: '        echo two' });
    expect(await bytes('run.sh')).toBe('\ufeff#!/bin/sh\r\n\techo one\r\n\techo two\r\n');
    expect(await run({ command: 'undo_edit', path: '/workspace/run.sh' })).toBe(
      "Last edit to /workspace/run.sh undone successfully. Here's the result of running `cat -n` on /workspace/run.sh:\n     1\t#!/bin/sh\n     2\t        echo one\n     3\t\n",
    );
    await run({ command: 'undo_edit', path: 'run.sh' });
    expect(await bytes('run.sh')).toBe('\ufeff#!/bin/sh\r\n\techo hi\r\n');
    expect((await host.workspace.stat('run.sh'))?.mode).toBe(0o755);
    await run({ command: 'create', path: 'made.txt', file_text: 'made' });
    expect(await run({ command: 'undo_edit', path: 'made.txt' })).toMatch(/^Last edit to made.txt undone successfully/);
    expect(host.files()['made.txt']).toBe('made');
    expect(await run({ command: 'undo_edit', path: 'made.txt' })).toBe('Error [tool_failed]: No edit history found for made.txt.');
  });

  it('refuses an edit of a file changed since it was read, writing nothing', async () => {
    const host = createFakeToolHost({ environment: linux, files: { 'a.txt': 'one\n' }, verification: { threshold: Infinity } });
    const racing = {
      readPath: (path: string) => host.readPath(path),
      budget: (...parts: Parameters<typeof host.budget>) => host.budget(...parts),
      edit: async (...parts: Parameters<typeof host.edit>) => {
        await host.workspace.writeFile('a.txt', new TextEncoder().encode('zero\none\n'));
        return host.edit(...parts);
      },
    };
    expect((await runTextEditor(racing, { command: 'str_replace', path: 'a.txt', old_str: 'one', new_str: 'two' })).output).toBe(
      'Error [patch_context_not_found]: No replacement was performed: a.txt changed since it was read; view it again and send the command again.',
    );
    expect(host.files()).toEqual({ 'a.txt': 'zero\none\n' });
  });
});
