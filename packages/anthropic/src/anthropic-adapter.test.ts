import { describe, expect, it } from 'vitest';
import { createFakeToolHost } from '@toolhost/testing';
import { answerToolUses, toAnthropicTools } from './index.js';

const linux = { platform: 'linux', env: {} };

describe('toAnthropicTools', () => {
  it('pins the emitted tools (advanced)', async () => {
    const host = createFakeToolHost({ profile: 'advanced', shellProfile: 'unix_like', environment: linux });
    const tools = toAnthropicTools(host);
    expect(tools.map((tool) => tool.name)).toEqual(['exec_command', 'write_stdin', 'apply_patch', 'search_tools', 'code_search']);
    for (const tool of tools) await expect(JSON.stringify(tool, null, 2) + '\n').toMatchFileSnapshot(`./__pins__/${tool.name}.json`);
  });

  it('passes the host JSON Schema through unchanged and can mark the list for caching', () => {
    const host = createFakeToolHost({ environment: linux });
    const tools = toAnthropicTools(host, { cacheControl: true });
    expect(tools.map((tool) => tool.input_schema)).toEqual(host.tools.map((tool) => tool.inputSchema));
    expect(tools.at(-1)?.cache_control).toEqual({ type: 'ephemeral' });
    expect(tools.slice(0, -1).every((tool) => tool.cache_control === undefined)).toBe(true);
  });
});

describe('answerToolUses', () => {
  it('answers tool_use blocks in order with is_error on failures', async () => {
    const host = createFakeToolHost({ environment: linux, commands: [{ match: 'ls', output: 'README.md\n' }] });
    const results = await answerToolUses(
      [
        { type: 'thinking', thinking: '…', signature: 'x' },
        { type: 'text', text: 'Listing files.' },
        { type: 'tool_use', id: 'toolu_1', name: 'exec_command', input: { cmd: 'ls' } },
        { type: 'tool_use', id: 'toolu_2', name: 'write_stdin', input: { session_id: 7, chars: '' } },
        { type: 'tool_use', id: 'toolu_3', name: 'exec_command', input: { cmd: 'ls', max_output_tokens: 0 } },
      ],
      host,
    );
    expect(results).toHaveLength(3);
    expect(results[0]).toEqual({ type: 'tool_result', tool_use_id: 'toolu_1', content: expect.stringMatching(/Output:\nREADME\.md\n$/) });
    expect(results[1]).toMatchObject({
      tool_use_id: 'toolu_2',
      is_error: true,
      content: expect.stringMatching(/^Error \[unknown_session\]/),
    });
    expect(results[2]).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_3',
      is_error: true,
      content: 'Error [invalid_arguments]: max_output_tokens must be an integer between 1 and 50000',
    });
    expect(host.calls.map((call) => call.name)).toEqual(['exec_command', 'write_stdin', 'exec_command']);
  });

  it('reports each full result through onResult', async () => {
    const host = createFakeToolHost({ environment: linux });
    const seen: string[] = [];
    await answerToolUses([{ type: 'tool_use', id: 't', name: 'nope', input: {} }], host, {
      onResult: (block, result) => seen.push(`${block.id}:${result.error?.code}`),
    });
    expect(seen).toEqual(['t:unknown_tool']);
  });
});
