// Pins the exact texts a model reads when it sends an apply_patch heredoc to exec_command.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANTHROPIC_NATIVE_VOCABULARY, createToolHost, OPENAI_NATIVE_VOCABULARY, type ToolHost } from 'toolhost';

const NOTE =
  'Note: this apply_patch command went to the apply_patch tool, not to a shell. Call the apply_patch tool directly instead of exec_command.';
const heredoc = (patch: string, prefix = '') => `${prefix}apply_patch <<'EOF'\n${patch}\nEOF`;
const update = (path: string, from: string, to: string) => `*** Begin Patch\n*** Update File: ${path}\n@@\n-${from}\n+${to}\n*** End Patch`;

let folder: string;
let host: ToolHost;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'toolhost-pin-patch-exec-'));
  mkdirSync(join(folder, 'src'));
  writeFileSync(join(folder, 'src/a.txt'), 'one\n');
  host = createToolHost({ workspace: folder, verification: { threshold: 1 } });
});
afterAll(async () => {
  await host.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('apply_patch through exec_command: model-visible texts', () => {
  it('success, failure, folder errors and the verification gate', async () => {
    const call = async (cmd: string) => (await host.call('exec_command', { cmd })).output;
    expect(await call(heredoc(update('a.txt', 'two', 'x'), 'cd src && '))).toBe(
      [
        'Error [patch_context_not_found]: The patch was not applied and no file was changed: 1 of 1 operation failed.',
        '*** Update File: src/a.txt: FAILED',
        '    chunk 1 (patch line 3): NOT FOUND — its context was not found: none of its 1 context/removed lines occurs in the file (even ignoring whitespace).',
        'Fix only what failed (re-read the file with exec_command if unsure) and send the whole patch again.',
        NOTE,
      ].join('\n'),
    );
    expect(await call(heredoc(update('a.txt', 'one', 'two'), 'cd .. && '))).toBe(
      `Error [outside_workspace]: cd ..: path ".." escapes the workspace with ".."; nothing was changed. Patch paths are relative to the workspace root ${folder}.\n${NOTE}`,
    );
    expect(await call(heredoc(update('a.txt', 'one', 'two'), 'cd lib && '))).toBe(
      `Error [tool_failed]: cd lib: lib is not an existing folder; nothing was changed.\n${NOTE}`,
    );
    expect(await call(heredoc(update('a.txt', 'one', 'two'), 'cd src && '))).toBe(
      `Success. Updated the following files:\nM src/a.txt\n${NOTE}`,
    );
    expect(await call(heredoc(update('src/a.txt', 'two', 'three')))).toBe(
      `Error [verification_required]: 1 edit was made without running any check. Run the project's tests, build, lint or typecheck with exec_command (for example \`npm test\`, \`cargo test\`, \`pytest\`), or, where there are none, a syntax check of an edited file (\`node --check FILE\`, \`bash -n FILE\`, \`python -m py_compile FILE\`); editing resumes as soon as one completes, passing or failing. Reads and inspection commands stay allowed.\n${NOTE}`,
    );
  });
});

describe('a bare patch sent as a command: model-visible refusal per vocabulary', () => {
  it('names the shell and edit tools the model was given, and runs nothing', async () => {
    const bare = update('src/a.txt', 'one', 'never');
    const texts = [];
    for (const vocabulary of [undefined, OPENAI_NATIVE_VOCABULARY, ANTHROPIC_NATIVE_VOCABULARY]) {
      texts.push((await host.call('exec_command', { cmd: bare }, vocabulary ? { vocabulary } : {})).output);
    }
    expect(texts).toEqual([
      'Error [invalid_arguments]: patch detected without explicit call to apply_patch, so nothing was run. Call the apply_patch tool with this patch instead of sending the patch to exec_command.',
      'Error [invalid_arguments]: patch detected without explicit call to apply_patch, so nothing was run. Call the apply_patch tool to make this edit instead of sending the patch to shell.',
      'Error [invalid_arguments]: patch detected without explicit call to apply_patch, so nothing was run. Call the str_replace_based_edit_tool tool to make this edit instead of sending the patch to bash.',
    ]);
  });
});
