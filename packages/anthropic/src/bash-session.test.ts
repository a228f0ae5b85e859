import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createToolHost, type ToolHost, type ToolResult } from 'toolhost';
import { runBash, type BashOptions } from './bash-session.js';

let workspace: string;
let host: ToolHost;
beforeEach(() => {
  workspace = mkdtempSync(join(tmpdir(), 'toolhost-bash-session-'));
  mkdirSync(join(workspace, 'sub'));
  host = createToolHost({ workspace, shellProfile: 'unix_like' });
});
afterEach(async () => {
  await host.close();
  rmSync(workspace, { recursive: true, force: true });
});

const bash = (input: Record<string, unknown>, options: BashOptions = {}): Promise<ToolResult> => runBash(host, input, options);

/** No text of the bash tool names a tool the model was not given. */
function expectOnlyBash(result: ToolResult): void {
  expect(result.output).not.toMatch(/exec_command|write_stdin/);
}

describe('bash keeps its shell at the timeout boundary', () => {
  it('reports a command that ends within the last poll before its timeout and keeps the folder and variables', async () => {
    const ended = await bash({ command: 'cd sub && export KEPT=yes && sleep 1; echo done' }, { timeoutMs: 1150 });
    expect(ended).toMatchObject({ ok: true, output: 'done\n' });
    expect(await bash({ command: 'echo "$KEPT in $(basename "$PWD")"' }, { timeoutMs: 1150 })).toMatchObject({
      ok: true,
      output: 'yes in sub\n',
    });
  });

  it('keeps the shell through commands under tiny timeouts (100 ms) that complete', async () => {
    expect(await bash({ command: 'true' }, { timeoutMs: 100 })).toMatchObject({ ok: true, output: '' });
    expect(await bash({ command: 'cd sub; TINY=1' }, { timeoutMs: 100 })).toMatchObject({ ok: true, output: '' });
    expect(await bash({ command: 'true' }, { timeoutMs: 1 })).toMatchObject({ ok: true, output: '' });
    expect(await bash({ command: 'echo "$TINY $(basename "$PWD")"' }, { timeoutMs: 100 })).toMatchObject({ ok: true, output: '1 sub\n' });
  });

  it('kills only a command still running at the deadline, and names bash in the error', async () => {
    await bash({ command: 'cd sub && export GONE=1' });
    const slow = await bash({ command: 'echo begun; sleep 5' }, { timeoutMs: 300 });
    expect(slow).toMatchObject({ ok: false, error: { code: 'tool_failed' } });
    expect(slow.output).toBe(
      'Error [tool_failed]: begun\nbash did not return within 0.3 seconds, so the shell was killed; the next command starts a new one (working folder and variables reset).',
    );
    expectOnlyBash(slow);
    expect(await bash({ command: 'echo "[$GONE]" && basename "$PWD"' })).toMatchObject({ output: `[]\n${workspace.split('/').at(-1)}\n` });
  });

  it('names only bash when the shell exits or is gone', async () => {
    const exited = await bash({ command: 'exit 3' });
    expect(exited.output).toBe('[the shell exited with code 3; the next command starts a new one]');
    expectOnlyBash(exited);
    expect(await bash({ command: 'echo again' })).toMatchObject({ ok: true, output: 'again\n' });
  });
});

// Cases of anthropics/anthropic-quickstarts computer-use-demo/tests/tools/bash_test.py, against the reference tool
// computer_use_demo/tools/bash.py; where toolhost answers differently on purpose, the case says so.
describe('bash_test.py (anthropic-quickstarts)', () => {
  it('test_bash_tool_restart: restarts, and runs commands after it (toolhost says "The shell was restarted.")', async () => {
    expect(await bash({ restart: true })).toMatchObject({ ok: true, output: 'The shell was restarted.' });
    expect((await bash({ command: "echo 'Hello after restart'" })).output).toContain('Hello after restart');
  });

  it('test_bash_tool_run_command', async () => {
    const result = await bash({ command: "echo 'Hello, World!'" });
    expect(result.output.trim()).toBe('Hello, World!');
    expect(result.ok).toBe(true);
  });

  it('test_bash_tool_no_command: refused (toolhost answers an error result, not an exception)', async () => {
    const result = await bash({});
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid_arguments' } });
    expect(result.output).toContain('command must be a non-empty string');
  });

  it('test_bash_tool_session_creation and test_bash_tool_session_reuse', async () => {
    expect((await bash({ command: "echo 'Session created'" })).output).toContain('Session created');
    expect((await bash({ command: "echo 'First command'" })).output).toContain('First command');
    expect((await bash({ command: "echo 'Second command'" })).output).toContain('Second command');
  });

  it('test_bash_tool_session_error: "command not found" (toolhost merges stderr into the output and adds the exit code)', async () => {
    const result = await bash({ command: 'invalid_command_that_does_not_exist' });
    expect(result.output).toContain('command not found');
    expect(result.output).toMatch(/\[exit code 127\]$/);
  });

  it('test_bash_tool_non_zero_exit: no output (toolhost adds "[exit code 1]", which the reference leaves out)', async () => {
    expect(await bash({ command: "bash -c 'exit 1'" })).toMatchObject({ ok: true, output: '[exit code 1]' });
  });

  it('test_bash_tool_timeout: a 0.1 s timeout on sleep 1 fails (toolhost kills the shell and starts a new one itself)', async () => {
    await bash({ command: "echo 'Hello, World!'" });
    const result = await bash({ command: 'sleep 1' }, { timeoutMs: 100 });
    expect(result).toMatchObject({ ok: false });
    expect(result.output).toContain('bash did not return within 0.1 seconds, so the shell was killed');
    expect(await bash({ command: 'echo alive' })).toMatchObject({ ok: true, output: 'alive\n' });
  });
});

describe('a patch sent to bash (Codex invocation rules)', () => {
  const NOTE =
    'Note: this apply_patch command went to the str_replace_based_edit_tool tool, not to a shell. Call the str_replace_based_edit_tool tool directly instead of bash.';
  const update = (path: string, from: string, to: string) =>
    `*** Begin Patch\n*** Update File: ${path}\n@@\n-${from}\n+${to}\n*** End Patch`;

  it("applies the heredoc and the argument form through the engine, in the shell's current folder", async () => {
    writeFileSync(join(workspace, 'sub', 'a.txt'), 'one\n');
    await bash({ command: 'cd sub' });
    const heredoc = await bash({ command: `apply_patch <<'EOF'\n${update('a.txt', 'one', 'two')}\nEOF` });
    expect(heredoc).toMatchObject({ ok: true, output: `Success. Updated the following files:\nM sub/a.txt\n${NOTE}` });
    const argument = await bash({ command: `applypatch '${update('a.txt', 'two', 'three')}'` });
    expect(argument).toMatchObject({ ok: true, output: `Success. Updated the following files:\nM sub/a.txt\n${NOTE}` });
    expect(readFileSync(join(workspace, 'sub', 'a.txt'), 'utf8')).toBe('three\n');
  });

  it("refuses a bare patch without running it: `***` would run the folder's first entry, `touch`", async () => {
    // In a shell, `*** Begin Patch` in this folder expands to `touch x.txt Begin Patch`, which creates Begin and Patch.
    const proof = join(workspace, 'proof');
    mkdirSync(proof);
    writeFileSync(join(proof, 'touch'), '');
    writeFileSync(join(proof, 'x.txt'), 'one\n');
    await bash({ command: 'cd proof' });
    for (const command of [
      update('x.txt', 'one', 'two'),
      `'${update('x.txt', 'one', 'two')}'`,
      `bash -lc '${update('x.txt', 'one', 'two')}'`,
    ]) {
      const refused = await bash({ command });
      expect(refused.output).toBe(
        'Error [invalid_arguments]: patch detected without explicit call to apply_patch, so nothing was run. Call the str_replace_based_edit_tool tool to make this edit instead of sending the patch to bash.',
      );
    }
    expect(existsSync(join(proof, 'Begin'))).toBe(false);
    expect(existsSync(join(proof, 'Patch'))).toBe(false);
    expect(readFileSync(join(proof, 'x.txt'), 'utf8')).toBe('one\n');
    // The proof holds: the same first line as an ordinary command runs `touch`.
    await bash({ command: `echo; ${update('x.txt', 'one', 'two').split('\n')[0]}` });
    expect(existsSync(join(proof, 'Begin'))).toBe(true);
  });

  it('refuses a patch from a shell folder outside the workspace, naming bash', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'toolhost-bash-outside-'));
    try {
      await bash({ command: `cd '${outside}'` });
      const refused = await bash({ command: `apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: a.txt\n+a\n*** End Patch\nEOF` });
      expect(refused).toMatchObject({ ok: false, error: { code: 'outside_workspace' } });
      expect(refused.output).toMatch(/^Error \[outside_workspace\]: the bash working folder: /);
      expectOnlyBash(refused);
      expect(existsSync(join(outside, 'a.txt'))).toBe(false);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});
