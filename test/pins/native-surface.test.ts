// Pins what providers see through the native adapters (OpenAI apply_patch/shell, Anthropic bash/text editor, MCP):
// the exact answer shapes and texts, and the same error code for the same mistake on every path.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerToolUses } from '@toolhost/anthropic';
import { createMcpServer } from '@toolhost/mcp';
import { answerResponsesCalls, createAgentsEditor, type ApplyPatchOperation } from '@toolhost/openai';
import { createFakeToolHost } from '@toolhost/testing';
import { createToolHost, type ToolHost } from 'toolhost';

const linux = { platform: 'linux', env: {} };
const files = { 'src/app.ts': 'export const port = 80;\nexport const host = "a";\nexport const host2 = "a";\n' };

describe('native answers', () => {
  let workspace: string;
  let host: ToolHost;
  beforeAll(() => {
    workspace = mkdtempSync(join(tmpdir(), 'toolhost-native-pins-'));
    mkdirSync(join(workspace, 'src'));
    writeFileSync(join(workspace, 'src/app.ts'), files['src/app.ts']);
    host = createToolHost({ workspace, shellProfile: 'unix_like' });
  });
  afterAll(async () => {
    await host.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('pins the OpenAI apply_patch_call and shell_call answers', async () => {
    const outputs = await answerResponsesCalls(
      [
        {
          type: 'apply_patch_call',
          id: 'a1',
          call_id: 'c_ok',
          status: 'completed',
          operation: { type: 'update_file', path: 'src/app.ts', diff: '@@\n-export const port = 80;\n+export const port = 8080;\n' },
        },
        {
          type: 'apply_patch_call',
          id: 'a2',
          call_id: 'c_miss',
          status: 'completed',
          operation: { type: 'update_file', path: 'src/app.ts', diff: '@@\n-export const port = 81;\n+export const port = 82;\n' },
        },
        {
          type: 'shell_call',
          id: 's1',
          call_id: 'c_sh',
          status: 'completed',
          environment: null,
          action: { commands: ['printf "ok\\n"', 'exit 2', 'sleep 5'], timeout_ms: 1_000, max_output_length: 100 },
        },
      ],
      host,
    );
    await expect(JSON.stringify(outputs, null, 2) + '\n').toMatchFileSnapshot('./__pins__/native/openai.answers.json');
  });

  it('pins the Anthropic bash and text editor answers', async () => {
    const use = (id: string, name: string, input: Record<string, unknown>) => ({ type: 'tool_use', id, name, input });
    const results = await answerToolUses(
      [
        use('view', 'str_replace_based_edit_tool', { command: 'view', path: 'src/app.ts', view_range: [2, 3] }),
        use('many', 'str_replace_based_edit_tool', { command: 'str_replace', path: 'src/app.ts', old_str: '"a"', new_str: '"b"' }),
        use('none', 'str_replace_based_edit_tool', { command: 'str_replace', path: 'src/app.ts', old_str: 'missing', new_str: 'x' }),
        use('edit', 'str_replace_based_edit_tool', {
          command: 'str_replace',
          path: 'src/app.ts',
          old_str: 'host2 = "a"',
          new_str: 'host2 = "b"',
        }),
        use('insert', 'str_replace_based_edit_tool', { command: 'insert', path: 'src/app.ts', insert_line: 0, insert_text: '// config' }),
        use('create', 'str_replace_based_edit_tool', { command: 'create', path: 'notes.md', file_text: '# Notes\n' }),
        use('dir', 'str_replace_based_edit_tool', { command: 'view', path: '.' }),
        use('bash', 'bash', { command: 'cd src && ls; false' }),
        use('restart', 'bash', { restart: true }),
        use('bad', 'bash', { cmd: 'ls' }),
      ],
      host,
    );
    await expect(JSON.stringify(results, null, 2).replaceAll(workspace, '<workspace>') + '\n').toMatchFileSnapshot(
      './__pins__/native/anthropic.answers.json',
    );
  });
});

describe('the same error code on every path', () => {
  // Each native operation and the apply_patch text that asks for the same change.
  const mistakes: Array<{ code: string; operation: ApplyPatchOperation; patch: string }> = [
    {
      code: 'patch_context_not_found',
      operation: { type: 'update_file', path: 'src/app.ts', diff: '@@\n-nothing like this\n+x\n' },
      patch: '*** Update File: src/app.ts\n@@\n-nothing like this\n+x',
    },
    { code: 'patch_target_missing', operation: { type: 'delete_file', path: 'src/gone.ts' }, patch: '*** Delete File: src/gone.ts' },
    {
      code: 'patch_target_exists',
      operation: { type: 'create_file', path: 'src/app.ts', diff: '+x\n' },
      patch: '*** Add File: src/app.ts\n+x',
    },
    {
      code: 'outside_workspace',
      operation: { type: 'create_file', path: '../escape.ts', diff: '+x\n' },
      patch: '*** Add File: ../escape.ts\n+x',
    },
  ];
  const nativeTexts: Record<string, string> = {};
  for (const { code, operation, patch } of mistakes) {
    it(`${code}: apply_patch, Responses apply_patch_call, Agents Editor, MCP`, async () => {
      const host = createFakeToolHost({ environment: linux, files });
      const input = `*** Begin Patch\n${patch}\n*** End Patch`;
      const direct = await host.call('apply_patch', { input });
      const [responses] = await answerResponsesCalls(
        [{ type: 'apply_patch_call', id: 'x', call_id: 'x', status: 'completed', operation }],
        host,
      );
      const editor = createAgentsEditor(host);
      const agents = await (operation.type === 'delete_file'
        ? editor.deleteFile(operation)
        : operation.type === 'create_file'
          ? editor.createFile(operation)
          : editor.updateFile({ type: operation.type, path: operation.path, diff: operation.diff }));
      const client = new Client({ name: 'pins', version: '1.0.0' });
      const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
      await Promise.all([createMcpServer(host).connect(serverTransport), client.connect(clientTransport)]);
      const mcp = await client.callTool({ name: 'apply_patch', arguments: { input } });
      await client.close();
      expect(direct.error?.code).toBe(code);
      // The native answers speak of the operation as it was sent (update_file, diff lines, the shell tool), not of patch text.
      expect(responses).toMatchObject({ status: 'failed', output: expect.stringMatching(new RegExp(`^Error \\[${code}\\]: `)) });
      expect(responses.output).not.toMatch(/\*\*\* (?:Add|Update|Delete) File|exec_command/);
      expect(agents).toEqual({ status: 'failed', output: responses.output });
      nativeTexts[code] = (responses as { output: string }).output;
      expect(mcp.structuredContent).toMatchObject({ error: { code } });
      expect(host.calls.map((call) => call.result.error?.code)).toEqual([code, code, code, code]);
    });
  }

  it('pins the native refusal texts of those calls (runs after them)', async () => {
    expect(Object.keys(nativeTexts)).toEqual(mistakes.map((mistake) => mistake.code));
    await expect(JSON.stringify(nativeTexts, null, 2) + '\n').toMatchFileSnapshot('./__pins__/native/openai.refusals.json');
  });

  it('outside_workspace and patch codes from the Anthropic text editor too', async () => {
    const host = createFakeToolHost({ environment: linux, files });
    const use = (id: string, input: Record<string, unknown>) => ({ type: 'tool_use', id, name: 'str_replace_based_edit_tool', input });
    const results = await answerToolUses(
      [
        use('o', { command: 'view', path: '../escape.ts' }),
        use('c', { command: 'create', path: '/etc/escape.ts', file_text: 'x' }),
        use('n', { command: 'str_replace', path: 'src/app.ts', old_str: 'nothing like this', new_str: 'x' }),
        use('a', { command: 'str_replace', path: 'src/app.ts', old_str: '"a"', new_str: 'x' }),
      ],
      host,
    );
    expect(results.map((result) => /^Error \[(\w+)\]/.exec(typeof result.content === 'string' ? result.content : '')?.[1])).toEqual([
      'outside_workspace',
      'outside_workspace',
      'patch_context_not_found',
      'patch_ambiguous',
    ]);
  });
});
