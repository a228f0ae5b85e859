// The adapter under AI SDK 7 (installed beside 6 as the `ai7` alias): every import of 'ai', the adapter's included, is
// AI SDK 7 when this runs, and tsconfig.ai7.json type-checks this file and the adapter with 'ai' resolved to AI SDK 7
// (`npm run typecheck`), as a user on AI SDK 7 compiles them; `tsc -b` checks it against AI SDK 6's types.
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV4 } from 'ai7/test';
import { describe, expect, expectTypeOf, it, vi } from 'vitest';
import { createFakeToolHost } from '@toolhost/testing';
import type { BuiltinToolInputs, CatalogEntry, ExecCommandInput, ToolResultOf } from 'toolhost';
import { createAiSdkTools, toAiSdkTools } from './index.js';

vi.mock('ai', () => import('ai7'));

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

/** AI SDK 7's mock model: one scripted tool call per step, then a text answer. */
function scriptedModel(calls: Array<{ toolName: string; input: unknown }>) {
  let step = 0;
  return new MockLanguageModelV4({
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

describe('AI SDK 7', () => {
  it('the adapter runs on AI SDK 7 (the mocked "ai" module is the 7.x one)', async () => {
    const ai = await import('ai');
    const ai7 = await import('ai7');
    expect(ai.generateText).toBe(ai7.generateText);
  });

  it('drives generateText with typed built-in results, errors as error-text and catalog tools as dynamic ones', async () => {
    const host = createFakeToolHost({ catalog, commands: [{ match: 'npm test', output: '# pass 1\n' }] });
    const live = createAiSdkTools(host);
    const model = scriptedModel([
      { toolName: 'exec_command', input: { cmd: 'npm test' } },
      { toolName: 'exec_command', input: { cmd: 'npm test', max_output_tokens: 0 } },
      { toolName: 'search_tools', input: { query: 'create a github issue' } },
      { toolName: 'github_create_issue', input: { title: 'Seven' } },
    ]);
    // A no-op where 'ai' is AI SDK 7; AI SDK 6's types (tsc -b) know no V4 model.
    const result = await generateText({
      model: model as unknown as Parameters<typeof generateText>[0]['model'],
      tools: live.tools,
      prepareStep: live.prepareStep,
      prompt: 'go',
      stopWhen: stepCountIs(8),
    });
    expect(result.text).toBe('done');

    const seen: string[] = [];
    for (const toolResult of result.steps.flatMap((step) => step.toolResults)) {
      if (toolResult.dynamic) {
        expect(toolResult).toMatchObject({ toolName: 'github_create_issue', output: { ok: true, output: 'Created issue "Seven" as #1' } });
        seen.push(`dynamic ${toolResult.toolName}`);
        continue;
      }
      if (toolResult.toolName === 'exec_command') {
        expectTypeOf(toolResult.input).toEqualTypeOf<ExecCommandInput>();
        expectTypeOf(toolResult.output).toEqualTypeOf<ToolResultOf<'exec_command'>>();
        expectTypeOf(toolResult.output.data?.exit_code).toEqualTypeOf<number | undefined>();
        expect(toolResult.input.cmd).toBe('npm test');
      } else if (toolResult.toolName === 'search_tools') {
        expectTypeOf(toolResult.input).toEqualTypeOf<BuiltinToolInputs['search_tools']>();
        expectTypeOf(toolResult.output).toEqualTypeOf<ToolResultOf<'search_tools'>>();
      }
      seen.push(`${toolResult.toolName} ${toolResult.output.ok}`);
    }
    expect(seen).toEqual(['exec_command true', 'exec_command false', 'search_tools true', 'dynamic github_create_issue']);

    const offered = model.doGenerateCalls.map((call) => (call.tools ?? []).map((tool) => tool.name));
    expect(offered[3]).toEqual(['exec_command', 'write_stdin', 'apply_patch', 'search_tools', 'github_create_issue']);
    const prompt = model.doGenerateCalls[2].prompt;
    const outputs = prompt.filter((message) => message.role === 'tool').flatMap((message) => message.content);
    expect(outputs.map((part) => (part.type === 'tool-result' ? part.output.type : part.type))).toEqual(['text', 'error-text']);
  });

  it('toAiSdkTools passes each JSON Schema through unchanged', () => {
    const host = createFakeToolHost({ profile: 'advanced' });
    const tools = toAiSdkTools(host);
    for (const [name, tool] of Object.entries(tools)) {
      expect((tool.inputSchema as { jsonSchema: unknown }).jsonSchema).toEqual(
        host.tools.find((definition) => definition.name === name)?.inputSchema,
      );
    }
  });
});
