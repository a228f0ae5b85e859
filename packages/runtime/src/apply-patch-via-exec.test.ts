import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import {
  approximateTokenizer,
  createMemorySpool,
  createMemoryWorkspace,
  maxOutputTokensSchema,
  okResult,
  type MemoryFileInput,
  type ToolImplementation,
} from '@toolhost/core';
import { createApplyPatchTool, PathLocks } from '@toolhost/patch';
import { createToolRuntime } from './tool-runtime.js';
import { resolveShellProfile } from '@toolhost/profiles';

const NOTE =
  'Note: this apply_patch command went to the apply_patch tool, not to a shell. Call the apply_patch tool directly instead of exec_command.';

function setup(files: Record<string, MemoryFileInput> = {}, threshold?: number) {
  const commands: string[] = [];
  const exec: ToolImplementation = {
    name: 'exec_command',
    schema: z.strictObject({ cmd: z.string(), workdir: z.string().optional(), max_output_tokens: maxOutputTokensSchema }),
    async execute(args) {
      commands.push(String(args.cmd));
      return okResult('ran', { exit_code: 0 });
    },
  };
  const stdin: ToolImplementation = { name: 'write_stdin', schema: z.strictObject({}), execute: async () => okResult('') };
  const workspace = createMemoryWorkspace(files);
  const runtime = createToolRuntime({
    profile: 'default',
    guidance: resolveShellProfile('unix_like', { platform: 'linux', env: {} }),
    workspace,
    spool: createMemorySpool(),
    tokenizer: approximateTokenizer,
    implementations: { exec_command: exec, write_stdin: stdin, apply_patch: createApplyPatchTool({ locks: new PathLocks() }) },
    verification: threshold === undefined ? undefined : { threshold },
  });
  return { runtime, workspace, commands };
}

const update = (path: string, from: string, to: string) => `*** Begin Patch\n*** Update File: ${path}\n@@\n-${from}\n+${to}\n*** End Patch`;

describe('apply_patch sent through exec_command', () => {
  it('applies the heredoc with the patch engine, never the shell, and points at the tool', async () => {
    const { runtime, workspace, commands } = setup({ 'a.txt': 'one\n' });
    const result = await runtime.call('exec_command', { cmd: `apply_patch <<'EOF'\n${update('a.txt', 'one', 'two')}\nEOF\n` });
    expect(result.ok).toBe(true);
    expect(result.output).toBe(`Success. Updated the following files:\nM a.txt\n${NOTE}`);
    expect(result.data?.diff).toEqual([expect.objectContaining({ path: 'a.txt', operation: 'updated', additions: 1, deletions: 1 })]);
    expect(result.data?.exit_code).toBe(0);
    expect(workspace.snapshot()).toEqual({ 'a.txt': 'two\n' });
    expect(commands).toEqual([]);
  });

  it('is atomic: a patch with one failing operation writes nothing and says why', async () => {
    const { runtime, workspace } = setup({ 'a.txt': 'one\n' });
    const patch = '*** Begin Patch\n*** Add File: b.txt\n+new\n*** Update File: a.txt\n@@\n-missing\n+x\n*** End Patch';
    const result = await runtime.call('exec_command', { cmd: `applypatch <<PATCH\n${patch}\nPATCH` });
    expect(result.ok).toBe(false);
    expect(result.error?.code).toBe('patch_context_not_found');
    expect(result.output.startsWith('Error [patch_context_not_found]: ')).toBe(true);
    expect(result.output.endsWith(`\n${NOTE}`)).toBe(true);
    expect(result.error?.message.endsWith(`\n${NOTE}`)).toBe(true);
    expect(result.data?.exit_code).toBe(1);
    expect(workspace.snapshot()).toEqual({ 'a.txt': 'one\n' });
  });

  it('reports a patch parse error with the pointer', async () => {
    const { runtime } = setup();
    const result = await runtime.call('exec_command', {
      cmd: "apply_patch <<'EOF'\n*** Begin Patch\n*** Frobnicate: x\n*** End Patch\nEOF",
    });
    expect(result.error?.code).toBe('patch_parse_error');
    expect(result.output.endsWith(`\n${NOTE}`)).toBe(true);
  });

  it('resolves paths from workdir and a leading cd, and refuses a folder outside the workspace or missing', async () => {
    const { runtime, workspace } = setup({ 'src/app/a.txt': 'one\n', 'src/b.txt': 'b\n' });
    const inApp = await runtime.call('exec_command', {
      cmd: `cd app && apply_patch <<'EOF'\n${update('a.txt', 'one', 'two')}\nEOF`,
      workdir: 'src',
    });
    expect(inApp.output).toBe(`Success. Updated the following files:\nM src/app/a.txt\n${NOTE}`);
    const upward = await runtime.call('exec_command', { cmd: `cd 'src/app' && apply_patch <<'EOF'\n${update('../b.txt', 'b', 'B')}\nEOF` });
    expect(upward.output).toBe(`Success. Updated the following files:\nM src/b.txt\n${NOTE}`);
    expect(workspace.snapshot()).toEqual({ 'src/app/a.txt': 'two\n', 'src/b.txt': 'B\n' });

    const outside = await runtime.call('exec_command', { cmd: `cd .. && apply_patch <<'EOF'\n${update('a.txt', 'two', 'x')}\nEOF` });
    expect(outside.output).toBe(
      `Error [outside_workspace]: cd ..: path ".." escapes the workspace with ".."; nothing was changed. Patch paths are relative to the workspace root /workspace.\n${NOTE}`,
    );
    const escaping = await runtime.call('exec_command', {
      cmd: `cd src && apply_patch <<'EOF'\n${update('../../a.txt', 'two', 'x')}\nEOF`,
    });
    expect(escaping.error?.code).toBe('outside_workspace');
    const missing = await runtime.call('exec_command', { cmd: `cd nowhere && apply_patch <<'EOF'\n${update('a.txt', 'two', 'x')}\nEOF` });
    expect(missing.output).toBe(`Error [tool_failed]: cd nowhere: nowhere is not an existing folder; nothing was changed.\n${NOTE}`);
    expect(workspace.snapshot()).toEqual({ 'src/app/a.txt': 'two\n', 'src/b.txt': 'B\n' });
  });

  it('takes a home-relative cd as outside the workspace under a workdir too, never as a folder named ~', async () => {
    const { runtime, workspace } = setup({ 'src/~/x/a.txt': 'one\n' });
    const home = await runtime.call('exec_command', {
      cmd: `cd ~/x && apply_patch <<'EOF'\n${update('a.txt', 'one', 'two')}\nEOF`,
      workdir: 'src',
    });
    expect(home.error?.code).toBe('outside_workspace');
    expect(workspace.snapshot()).toEqual({ 'src/~/x/a.txt': 'one\n' });
  });

  it('counts as an edit for anti-blind-editing, and is blocked like one', async () => {
    const { runtime, workspace } = setup({ 'a.txt': '0\n' }, 2);
    const step = (from: number) =>
      runtime.call('exec_command', { cmd: `apply_patch <<'EOF'\n${update('a.txt', String(from), String(from + 1))}\nEOF` });
    expect((await step(0)).ok).toBe(true);
    expect(runtime.gate.mutationsSinceVerification).toBe(1);
    expect((await runtime.call('apply_patch', { input: update('a.txt', '1', '2') })).ok).toBe(true);
    const blocked = await step(2);
    expect(blocked.error?.code).toBe('verification_required');
    expect(blocked.output.endsWith(`\n${NOTE}`)).toBe(true);
    expect(workspace.snapshot()).toEqual({ 'a.txt': '2\n' });
    await runtime.call('exec_command', { cmd: 'npm test' });
    expect((await step(2)).ok).toBe(true);
  });

  it('runs anything that merely mentions apply_patch as a command', async () => {
    const { runtime, commands } = setup();
    const mentions = [
      'echo apply_patch',
      'apply_patch --help | head',
      'apply_patch "$PATCH"',
      `echo hi && apply_patch <<'EOF'\n${update('a', 'b', 'c')}\nEOF`,
      `apply_patch <<'EOF'\n${update('a', 'b', 'c')}\nEOF\nls`,
    ];
    for (const cmd of mentions) expect((await runtime.call('exec_command', { cmd })).output).toBe('ran');
    expect(commands).toEqual(mentions);
  });

  it('applies the argument form, as an argv pair and as a heredoc inside bash -lc, with the shell quoting rules', async () => {
    const { runtime, workspace, commands } = setup({ 'a.txt': 'one\n', 'src/b.txt': 'x\n' });
    const argument = await runtime.call('exec_command', { cmd: `apply_patch '${update('a.txt', 'one', 'two')}'` });
    expect(argument.output).toBe(`Success. Updated the following files:\nM a.txt\n${NOTE}`);
    const quoted = `bash -lc "cd src && applypatch <<'EOF'\n${update('b.txt', 'x', 'y')}\nEOF"`;
    expect((await runtime.call('exec_command', { cmd: quoted })).output).toBe(
      `Success. Updated the following files:\nM src/b.txt\n${NOTE}`,
    );
    expect(workspace.snapshot()).toEqual({ 'a.txt': 'two\n', 'src/b.txt': 'y\n' });
    expect(commands).toEqual([]);
  });

  it('refuses a bare patch sent as a command (Codex ImplicitInvocation) and runs nothing', async () => {
    const { runtime, workspace, commands } = setup({ 'a.txt': 'one\n' });
    for (const cmd of [
      update('a.txt', 'one', 'two'),
      `'${update('a.txt', 'one', 'two')}'`,
      `bash -lc '${update('a.txt', 'one', 'two')}'`,
    ]) {
      const result = await runtime.call('exec_command', { cmd });
      expect(result.output).toBe(
        'Error [invalid_arguments]: patch detected without explicit call to apply_patch, so nothing was run. Call the apply_patch tool with this patch instead of sending the patch to exec_command.',
      );
      expect(result.data).toMatchObject({ exit_code: 1 });
    }
    expect(workspace.snapshot()).toEqual({ 'a.txt': 'one\n' });
    expect(commands).toEqual([]);
  });

  // openai/codex codex-rs/apply-patch/src/invocation.rs, test_apply_patch_resolves_move_path_with_effective_cwd.
  it('resolves the file and its Move to under the cd folder of a bash -lc heredoc', async () => {
    const { runtime, workspace } = setup({ 'alt/old.txt': 'before\n' });
    const patch = '*** Begin Patch\n*** Update File: old.txt\n*** Move to: renamed.txt\n@@\n-before\n+after\n*** End Patch';
    const result = await runtime.call('exec_command', { cmd: `bash -lc "cd alt && apply_patch <<'PATCH'\n${patch}\nPATCH"` });
    expect(result.ok).toBe(true);
    expect(workspace.snapshot()).toEqual({ 'alt/renamed.txt': 'after\n' });
  });

  // openai/codex codex-rs/apply-patch/src/invocation.rs, test_apply_patch_should_resolve_absolute_paths_in_cwd.
  it('resolves the argument form against workdir', async () => {
    const { runtime, workspace } = setup({ 'session/source.txt': 'session directory content\n' });
    const patch =
      '*** Begin Patch\n*** Update File: source.txt\n@@\n-session directory content\n+updated session directory content\n*** End Patch';
    expect((await runtime.call('exec_command', { cmd: `apply_patch '${patch}'`, workdir: 'session' })).ok).toBe(true);
    expect(workspace.snapshot()).toEqual({ 'session/source.txt': 'updated session directory content\n' });
  });

  it('still validates exec_command arguments first', async () => {
    const { runtime, workspace } = setup({ 'a.txt': 'one\n' });
    const result = await runtime.call('exec_command', { cmd: `apply_patch <<'EOF'\n${update('a.txt', 'one', 'two')}\nEOF`, bogus: 1 });
    expect(result.error?.code).toBe('invalid_arguments');
    expect(workspace.snapshot()).toEqual({ 'a.txt': 'one\n' });
  });
});
