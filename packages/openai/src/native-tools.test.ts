import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Editor, Shell } from '@openai/agents-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeToolHost } from '@toolhost/testing';
import { createToolHost, type ToolHost } from 'toolhost';
import {
  answerResponsesCalls,
  createAgentsEditor,
  createAgentsShell,
  limitOutputLength,
  toFileOperation,
  toResponsesTools,
} from './index.js';

const linux = { platform: 'linux', env: {} };

function applyPatchCall(callId: string, operation: Record<string, unknown>) {
  return { type: 'apply_patch_call', id: `apc_${callId}`, call_id: callId, status: 'completed', operation };
}

describe('toResponsesTools native', () => {
  it('pins the native tool list: apply_patch and shell replace their function tools', async () => {
    const host = createFakeToolHost({ profile: 'advanced', shellProfile: 'unix_like', environment: linux });
    const tools = toResponsesTools(host, { native: true });
    expect(tools.map((tool) => ('name' in tool ? tool.name : tool.type))).toEqual(['shell', 'apply_patch', 'search_tools', 'code_search']);
    await expect(JSON.stringify(tools.slice(0, 2), null, 2) + '\n').toMatchFileSnapshot('./__pins__/native.tools.json');
  });
});

describe('apply_patch_call', () => {
  it('turns each V4A operation into one file operation with its diff, never into patch text', () => {
    expect(toFileOperation({ type: 'create_file', path: 'a.txt', diff: '+one\n+two\n' })).toEqual({
      kind: 'add',
      path: 'a.txt',
      diff: '+one\n+two\n',
    });
    expect(toFileOperation({ type: 'update_file', path: 'a.txt', diff: '@@\n-one\n+uno', move_to: 'b.txt' })).toEqual({
      kind: 'update',
      path: 'a.txt',
      diff: '@@\n-one\n+uno',
      moveTo: 'b.txt',
    });
    expect(toFileOperation({ type: 'update_file', path: 'a.txt', diff: '@@\n-one\n+uno', move_to: null })).toEqual({
      kind: 'update',
      path: 'a.txt',
      diff: '@@\n-one\n+uno',
    });
    expect(toFileOperation({ type: 'delete_file', path: 'a.txt' })).toEqual({ kind: 'delete', path: 'a.txt' });
    expect(toFileOperation({ type: 'rename_file', path: 'a.txt' })).toBeUndefined();
    expect(toFileOperation({ type: 'update_file', path: 'a.txt' })).toBeUndefined();
  });

  it('touches only the operation path: a diff line that names or frames another file is refused and nothing changes', async () => {
    const files = { 'a.txt': 'one\n', 'victim.txt': 'keep me\n' };
    const host = createFakeToolHost({ environment: linux, files });
    const outputs = await answerResponsesCalls(
      [
        applyPatchCall('m1', { type: 'update_file', path: 'a.txt', diff: '@@\n-one\n+uno\n*** Delete File: victim.txt\n' }),
        applyPatchCall('m2', { type: 'create_file', path: 'new.txt', diff: '+x\n*** Add File: other.txt\n+y\n' }),
        applyPatchCall('m3', {
          type: 'update_file',
          path: 'a.txt',
          diff: '@@\n-one\n+uno\n*** End Patch\n*** Begin Patch\n*** Update File: victim.txt\n@@\n-keep me\n+gone\n',
        }),
        applyPatchCall('m4', { type: 'update_file', path: 'a.txt', diff: '*** Move to: victim.txt\n@@\n-one\n+uno\n' }),
      ],
      host,
    );
    expect(outputs.map((output) => (output as { output: string }).output)).toEqual([
      'Error [patch_parse_error]: Nothing was changed: update_file a.txt: line 4 of the diff: "*** Delete File: victim.txt" is a patch file marker; this diff may only change a.txt. Send each file\'s change as its own operation; to keep such a line as unchanged text, prefix it with a space.',
      'Error [patch_parse_error]: Nothing was changed: create_file new.txt: line 2 of the diff: "*** Add File: other.txt" is a patch file marker; this diff may only create new.txt. Send each file as its own operation; to write such a line into the file, prefix it with "+".',
      'Error [patch_parse_error]: Nothing was changed: update_file a.txt: line 4 of the diff: "*** End Patch" is a patch file marker; this diff may only change a.txt. Send each file\'s change as its own operation; to keep such a line as unchanged text, prefix it with a space.',
      'Error [patch_parse_error]: Nothing was changed: update_file a.txt: line 1 of the diff: "*** Move to: victim.txt" is a patch file marker; this diff may only change a.txt. Send each file\'s change as its own operation; to keep such a line as unchanged text, prefix it with a space.',
    ]);
    expect(host.files()).toEqual(files);
    expect(host.calls.map((call) => call.result.data?.line)).toEqual([4, 2, 4, 1]);
  });

  it('keeps a marker-like line that is content: context led by a space, an added line led by "+"', async () => {
    const host = createFakeToolHost({ environment: linux, files: { 'notes.md': 'intro\n *** Delete File: x\n' } });
    const outputs = await answerResponsesCalls(
      [
        applyPatchCall('k1', { type: 'update_file', path: 'notes.md', diff: '@@\n intro\n  *** Delete File: x\n+*** Add File: y\n' }),
        applyPatchCall('k2', { type: 'create_file', path: 'doc.md', diff: '+*** Begin Patch\n+*** End Patch\n' }),
      ],
      host,
    );
    expect(outputs.map((output) => 'status' in output && output.status)).toEqual(['completed', 'completed']);
    expect(host.files()).toEqual({
      'notes.md': 'intro\n *** Delete File: x\n*** Add File: y\n',
      // As the Agents SDK's applyDiff creates it: the lines joined, no final line ending added.
      'doc.md': '*** Begin Patch\n*** End Patch',
    });
  });

  it('speaks of a failed operation in the native terms: update_file, diff lines, the shell tool', async () => {
    const host = createFakeToolHost({ environment: linux, files: { 'a.txt': 'one\ntwo\n' } });
    const [output] = await answerResponsesCalls(
      [applyPatchCall('n1', { type: 'update_file', path: 'a.txt', diff: '@@\n one\n-three\n+four\n' })],
      host,
    );
    expect((output as { output: string }).output).toBe(
      [
        'Error [patch_context_not_found]: The patch was not applied and no file was changed: 1 of 1 operation failed.',
        'update_file a.txt: FAILED',
        '    chunk 1 (diff line 1): NOT FOUND — its context was not found. Closest region (lines 1-2, 1 of 2 lines alike):',
        '      1 | one',
        '      2 | two',
        '    first difference: file line 2 is "two" where the patch (line 3) expects "three"',
        'Fix only what failed (re-read the file with shell if unsure) and send the operation again.',
      ].join('\n'),
    );
  });

  it('creates, updates and deletes through the patch engine, keeping CRLF and the BOM', async () => {
    const host = createFakeToolHost({ environment: linux, files: { 'crlf.txt': '\ufeffalpha\r\nbeta\r\n' } });
    const outputs = await answerResponsesCalls(
      [
        applyPatchCall('c1', { type: 'create_file', path: 'src/new.ts', diff: '+export const x = 1;\n' }),
        applyPatchCall('c2', { type: 'update_file', path: 'crlf.txt', diff: '@@\n alpha\n-beta\n+gamma\n' }),
        applyPatchCall('c3', { type: 'delete_file', path: 'src/new.ts' }),
      ],
      host,
    );
    expect(outputs).toEqual([
      {
        type: 'apply_patch_call_output',
        call_id: 'c1',
        status: 'completed',
        output: 'Success. Updated the following files:\nA src/new.ts\n',
      },
      {
        type: 'apply_patch_call_output',
        call_id: 'c2',
        status: 'completed',
        output: 'Success. Updated the following files:\nM crlf.txt\n',
      },
      {
        type: 'apply_patch_call_output',
        call_id: 'c3',
        status: 'completed',
        output: 'Success. Updated the following files:\nD src/new.ts\n',
      },
    ]);
    expect(Object.keys(host.files())).toEqual(['crlf.txt']);
    expect(Buffer.from(await host.workspace.readFile('crlf.txt')).toString('utf8')).toBe('\ufeffalpha\r\ngamma\r\n');
  });

  it('answers a refused operation with status failed and its fix-it text in the native terms, writing nothing', async () => {
    const files = { 'a.txt': 'one\ntwo\n' };
    const host = createFakeToolHost({ environment: linux, files });
    const cases = [
      { type: 'update_file', path: 'a.txt', diff: '@@\n-three\n+four\n' },
      { type: 'create_file', path: 'a.txt', diff: '+x\n' },
      { type: 'delete_file', path: 'missing.txt' },
      { type: 'update_file', path: '../outside.txt', diff: '@@\n-a\n+b\n' },
    ];
    const outputs = await answerResponsesCalls(
      cases.map((operation, index) => applyPatchCall(`f${index}`, operation)),
      host,
    );
    const texts = outputs.map((output) => (output as { output: string }).output);
    expect(outputs.map((output) => 'status' in output && output.status)).toEqual(['failed', 'failed', 'failed', 'failed']);
    expect(texts.slice(1)).toEqual([
      'Error [patch_target_exists]: The patch was not applied and no file was changed: 1 of 1 operation failed.\ncreate_file a.txt: FAILED — a.txt already exists; use update_file to change it, or delete_file it first.\nFix only what failed (re-read the file with shell if unsure) and send the operation again.',
      'Error [patch_target_missing]: The patch was not applied and no file was changed: 1 of 1 operation failed.\ndelete_file missing.txt: FAILED — missing.txt does not exist.\nFix only what failed (re-read the file with shell if unsure) and send the operation again.',
      'Error [outside_workspace]: The patch was not applied and no file was changed: 1 of 1 operation failed.\nupdate_file ../outside.txt: FAILED — path "../outside.txt" escapes the workspace with ".."\nFix only what failed (re-read the file with shell if unsure) and send the operation again.',
    ]);
    expect(host.calls.map((call) => call.result.error?.code)).toEqual([
      'patch_context_not_found',
      'patch_target_exists',
      'patch_target_missing',
      'outside_workspace',
    ]);
    expect(host.files()).toEqual(files);
  });

  it('names the type of a malformed operation as the model sent it', async () => {
    const host = createFakeToolHost({ environment: linux, files: { 'a.txt': 'keep\n' } });
    const operations = [
      { type: ['create_file'], path: 'b.txt', diff: '+y' },
      { type: { kind: 'add' } },
      { path: 'b.txt' },
      { type: 'rename_file' },
    ];
    const outputs = await answerResponsesCalls(
      operations.map((operation, index) => applyPatchCall(`m${index}`, operation)),
      host,
    );
    const shape =
      'Error [invalid_arguments]: Nothing was changed: an apply_patch operation is {"type":"create_file"|"update_file","path":string,"diff":string} (update_file may add "move_to") or {"type":"delete_file","path":string}; got type';
    expect(outputs.map((output) => (output as { output: string }).output)).toEqual([
      `${shape} "[\\"create_file\\"]".`,
      `${shape} "{\\"kind\\":\\"add\\"}".`,
      `${shape} "none".`,
      `${shape} "rename_file".`,
    ]);
    expect(host.files()).toEqual({ 'a.txt': 'keep\n' });
  });

  it('refuses a path with a line break instead of letting it inject envelope lines', async () => {
    const host = createFakeToolHost({ environment: linux, files: { 'a.txt': 'keep\n' } });
    const [output] = await answerResponsesCalls(
      [applyPatchCall('x', { type: 'create_file', path: 'b.txt\n*** Delete File: a.txt', diff: '+y' })],
      host,
    );
    expect(output).toMatchObject({
      status: 'failed',
      output: expect.stringMatching(/^Error \[outside_workspace\]: path .* contains a NUL or control character$/),
    });
    expect(host.files()).toEqual({ 'a.txt': 'keep\n' });
  });

  it('refuses a path with surrounding whitespace instead of writing the trimmed name', async () => {
    const host = createFakeToolHost({ environment: linux, files: { 'a.txt': 'keep\n' } });
    const outputs = await answerResponsesCalls(
      [
        applyPatchCall('w1', { type: 'create_file', path: ' b.txt', diff: '+y' }),
        applyPatchCall('w2', { type: 'update_file', path: 'a.txt ', diff: '@@\n-keep\n+changed' }),
        applyPatchCall('w3', { type: 'update_file', path: 'a.txt', move_to: 'c.txt\t', diff: '@@\n-keep\n+moved' }),
      ],
      host,
    );
    expect(outputs.map((output) => (output as { output: string }).output)).toEqual([
      'Error [invalid_arguments]: path " b.txt" starts or ends with whitespace; file names with surrounding whitespace are not supported: send the path without it.',
      'Error [invalid_arguments]: path "a.txt " starts or ends with whitespace; file names with surrounding whitespace are not supported: send the path without it.',
      'Error [invalid_arguments]: path "c.txt\\t" starts or ends with whitespace; file names with surrounding whitespace are not supported: send the path without it.',
    ]);
    expect(host.files()).toEqual({ 'a.txt': 'keep\n' });
  });

  it('counts native edits in the anti-blind-editing gate', async () => {
    const host = createFakeToolHost({ environment: linux, verification: { threshold: 1 } });
    const outputs = await answerResponsesCalls(
      [
        applyPatchCall('g1', { type: 'create_file', path: 'a.txt', diff: '+a' }),
        applyPatchCall('g2', { type: 'create_file', path: 'b.txt', diff: '+b' }),
      ],
      host,
    );
    expect(outputs.map((output) => 'status' in output && output.status)).toEqual(['completed', 'failed']);
    expect(outputs[1].output).toBe(
      "Error [verification_required]: 1 edit was made without running any check. Run the project's tests, build, lint or typecheck with shell (for example `npm test`, `cargo test`, `pytest`), or, where there are none, a syntax check of an edited file (`node --check FILE`, `bash -n FILE`, `python -m py_compile FILE`); editing resumes as soon as one completes, passing or failing. Reads and inspection commands stay allowed.",
    );
  });

  it('answers an apply_patch heredoc sent as a shell command in the native terms', async () => {
    const host = createFakeToolHost({ environment: linux, files: { 'a.txt': 'one\n' } });
    const heredoc = (body: string) => `apply_patch <<'EOF'\n*** Begin Patch\n${body}\n*** End Patch\nEOF`;
    const [output] = await answerResponsesCalls(
      [
        {
          type: 'shell_call',
          id: 'sh',
          call_id: 'sh',
          status: 'completed',
          action: {
            commands: [heredoc('*** Update File: a.txt\n@@\n-one\n+uno'), heredoc('*** Update File: a.txt\n@@\n-two\n+deux')],
            timeout_ms: null,
            max_output_length: null,
          },
        },
      ],
      host,
    );
    const note =
      'Note: this apply_patch command went to the apply_patch tool, not to a shell. Call the apply_patch tool directly instead of shell.';
    expect(
      (output as { output: Array<{ stdout: string; stderr: string; outcome: unknown }> }).output.map((entry) => [
        entry.stdout || entry.stderr,
        entry.outcome,
      ]),
    ).toEqual([
      [`Success. Updated the following files:\nM a.txt\n${note}`, { type: 'exit', exit_code: 0 }],
      [
        `Error [patch_context_not_found]: The patch was not applied and no file was changed: 1 of 1 operation failed.\n*** Update File: a.txt: FAILED\n    chunk 1 (patch line 3): NOT FOUND — its context was not found: none of its 1 context/removed lines occurs in the file (even ignoring whitespace).\nFix only what failed (re-read the file with shell if unsure) and send the whole patch again.\n${note}`,
        { type: 'exit', exit_code: 1 },
      ],
    ]);
    expect(host.files()).toEqual({ 'a.txt': 'uno\n' });
  });
});

describe('shell_call on a real host', () => {
  let workspace: string;
  let host: ToolHost;
  beforeAll(() => {
    workspace = mkdtempSync(join(tmpdir(), 'toolhost-openai-shell-'));
    host = createToolHost({ workspace, shellProfile: 'unix_like' });
  });
  afterAll(async () => {
    await host.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('answers one output entry per command with exit codes, merged output and max_output_length', async () => {
    const [output] = await answerResponsesCalls(
      [
        {
          type: 'shell_call',
          id: 'sh_1',
          call_id: 'call_sh',
          status: 'completed',
          environment: null,
          action: { commands: ['echo out; echo err 1>&2', 'exit 3', 'printf "%0100d" 0'], timeout_ms: 20_000, max_output_length: 20 },
        },
      ],
      host,
    );
    expect(output).toEqual({
      type: 'shell_call_output',
      call_id: 'call_sh',
      max_output_length: 20,
      output: [
        { stdout: 'out\nerr\n', stderr: '', outcome: { type: 'exit', exit_code: 0 } },
        { stdout: '', stderr: '', outcome: { type: 'exit', exit_code: 3 } },
        { stdout: limitOutputLength('0'.repeat(100), 20), stderr: '', outcome: { type: 'exit', exit_code: 0 } },
      ],
    });
    expect(limitOutputLength('0'.repeat(100), 20)).toBe(`${'0'.repeat(10)}\n…80 characters truncated…\n${'0'.repeat(10)}`);
  });

  it('kills a command at timeout_ms and reports a timeout outcome; later commands still run', async () => {
    const [output] = await answerResponsesCalls(
      [
        {
          type: 'shell_call',
          id: 'sh_2',
          call_id: 'call_t',
          status: 'completed',
          environment: null,
          action: { commands: ['echo begun; sleep 30; echo never > late.txt', 'echo next'], timeout_ms: 1_000, max_output_length: null },
        },
      ],
      host,
    );
    expect(output).toMatchObject({
      output: [
        { stdout: expect.stringContaining('begun'), stderr: '', outcome: { type: 'timeout' } },
        { stdout: 'next\n', outcome: { type: 'exit', exit_code: 0 } },
      ],
    });
    expect(existsSync(join(workspace, 'late.txt'))).toBe(false);
  });

  it('reports a command the host refuses with its error text and code in stderr', async () => {
    const [output] = await answerResponsesCalls(
      [
        {
          type: 'shell_call',
          id: 'sh_3',
          call_id: 'call_r',
          status: 'completed',
          environment: null,
          action: { commands: [''], timeout_ms: null, max_output_length: null },
        },
      ],
      host,
    );
    expect(output).toMatchObject({
      output: [{ stdout: '', stderr: expect.stringMatching(/^Error \[invalid_arguments\]/), outcome: { type: 'exit', exit_code: 1 } }],
    });
  });

  it('backs the Agents SDK Shell and Editor interfaces', async () => {
    // Compile-time proof that ours implement @openai/agents-core's interfaces.
    const shell: Shell = createAgentsShell(host);
    const editor: Editor = createAgentsEditor(host);
    expect(await shell.run({ commands: ['echo agents', 'false'], maxOutputLength: 100 })).toEqual({
      output: [
        { stdout: 'agents\n', stderr: '', outcome: { type: 'exit', exitCode: 0 } },
        { stdout: '', stderr: '', outcome: { type: 'exit', exitCode: 1 } },
      ],
      maxOutputLength: 100,
    });
    expect(await editor.createFile({ type: 'create_file', path: 'notes.md', diff: '+# Notes\n+one\n' })).toEqual({
      status: 'completed',
      output: 'Success. Updated the following files:\nA notes.md\n',
    });
    expect(
      await editor.updateFile({ type: 'update_file', path: 'notes.md', diff: '@@\n # Notes\n-one\n+two\n', moveTo: 'docs.md' }),
    ).toEqual({
      status: 'completed',
      output: 'Success. Updated the following files:\nM docs.md\n',
    });
    expect(readFileSync(join(workspace, 'docs.md'), 'utf8')).toBe('# Notes\ntwo');
    const failed = await editor.deleteFile({ type: 'delete_file', path: 'notes.md' });
    expect(failed).toMatchObject({ status: 'failed', output: expect.stringMatching(/^Error \[patch_target_missing\]/) });
  });
});
