// The tool set's types reach generateText's steps: `npm run typecheck` checks the expectTypeOf and @ts-expect-error
// lines below (vitest runs them as plain calls), and the run checks that the values behind those types are what arrives.
import { generateText, stepCountIs, type Tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { createFakeToolHost } from '@toolhost/testing';
import type { BuiltinToolInputs, CatalogEntry, ExecCommandInput, ToolResultOf } from 'toolhost';
import { createAiSdkTools, toAiSdkTools, type AiSdkToolSet } from './index.js';

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};
const catalog: CatalogEntry[] = [
  {
    name: 'github_create_issue',
    description: 'Create a GitHub issue in a repository.',
    inputSchema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
    handler: (args) => `Created issue "${String(args.title)}" as #1`,
  },
];

/** One scripted tool call per step, then a text answer. */
function scriptedModel(calls: Array<{ toolName: string; input: unknown }>) {
  let step = 0;
  return new MockLanguageModelV3({
    doGenerate: async () => {
      const call = calls[step++];
      if (!call) return { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
      return {
        content: [{ type: 'tool-call', toolCallId: `call_${step}`, toolName: call.toolName, input: JSON.stringify(call.input) }],
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage,
        warnings: [],
      };
    },
  });
}

describe('typed AI SDK tools', () => {
  it('types each built-in tool by its arguments and its typed ToolResult', () => {
    const tools = toAiSdkTools(createFakeToolHost({ profile: 'advanced' }));
    expectTypeOf(tools).toEqualTypeOf<AiSdkToolSet>();
    expectTypeOf(tools.exec_command).toEqualTypeOf<Tool<ExecCommandInput, ToolResultOf<'exec_command'>>>();
    expectTypeOf(tools.code_search).toEqualTypeOf<Tool<BuiltinToolInputs['code_search'], ToolResultOf<'code_search'>>>();
    expectTypeOf<ExecCommandInput>().toEqualTypeOf<{
      cmd: string;
      workdir?: string | undefined;
      tty?: boolean | undefined;
      yield_time_ms?: number | undefined;
      max_output_tokens?: number | undefined;
      sandbox_permissions?: 'use_default' | 'require_escalated' | undefined;
      justification?: string | undefined;
    }>();
    expect(Object.keys(tools)).toEqual(['exec_command', 'write_stdin', 'apply_patch', 'search_tools', 'code_search']);
  });

  it("gives generateText steps typed built-in calls and results, and catalog tools' as dynamic ones", async () => {
    const host = createFakeToolHost({ catalog, commands: [{ match: 'npm test', output: '# pass 1\n' }] });
    const live = createAiSdkTools(host);
    const model = scriptedModel([
      { toolName: 'exec_command', input: { cmd: 'npm test' } },
      { toolName: 'search_tools', input: { query: 'create a github issue' } },
      { toolName: 'github_create_issue', input: { title: 'Typed' } },
    ]);
    const result = await generateText({ model, tools: live.tools, prepareStep: live.prepareStep, prompt: 'go', stopWhen: stepCountIs(6) });

    const seen: string[] = [];
    for (const toolResult of result.steps.flatMap((step) => step.toolResults)) {
      if (toolResult.dynamic) {
        expectTypeOf(toolResult.input).toBeUnknown();
        expectTypeOf(toolResult.output).toBeUnknown();
        expect(toolResult).toMatchObject({
          toolName: 'github_create_issue',
          input: { title: 'Typed' },
          output: { ok: true, output: 'Created issue "Typed" as #1' },
        });
        seen.push(`dynamic ${toolResult.toolName}`);
        continue;
      }
      if (toolResult.toolName === 'exec_command') {
        expectTypeOf(toolResult.output).toEqualTypeOf<ToolResultOf<'exec_command'>>();
        expectTypeOf(toolResult.output.data?.exit_code).toEqualTypeOf<number | undefined>();
        expect(toolResult.output.data?.exit_code).toBe(0);
        expectTypeOf(toolResult.input).toEqualTypeOf<ExecCommandInput>();
        // @ts-expect-error exec_command takes `cmd`, not `command`
        expect(toolResult.input.command).toBeUndefined();
        expect(toolResult.input.cmd).toBe('npm test');
        expect(toolResult.output.ok).toBe(true);
      } else if (toolResult.toolName === 'search_tools') {
        expectTypeOf(toolResult.output).toEqualTypeOf<ToolResultOf<'search_tools'>>();
        expectTypeOf(toolResult.input).toEqualTypeOf<BuiltinToolInputs['search_tools']>();
        expect(toolResult.input.query).toBe('create a github issue');
        expect(toolResult.output.output).toContain('github_create_issue');
      }
      seen.push(toolResult.toolName);
    }
    expect(seen).toEqual(['exec_command', 'search_tools', 'dynamic github_create_issue']);

    const calls = result.steps.flatMap((step) => step.toolCalls);
    const first = calls[0];
    if (!first.dynamic && first.toolName === 'exec_command') expectTypeOf(first.input).toEqualTypeOf<ExecCommandInput>();
    expect(calls.map((call) => call.dynamic ?? false)).toEqual([false, false, true]);
  });
});
