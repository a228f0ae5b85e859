import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { createFakeToolHost } from '@toolhost/testing';
import type { CatalogEntry } from 'toolhost';
import { createAiSdkTools, toAiSdkTools } from './index.js';

const linux = { platform: 'linux', env: {} };
const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};
const catalog: CatalogEntry[] = [
  {
    name: 'github_create_issue',
    description: 'Create a GitHub issue in a repository.',
    inputSchema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
    handler: (args) => `Created issue "${String(args.title)}" as #1`,
  },
];

type Call = { toolName: string; input: unknown };
/** A mock model that makes the scripted tool calls, one step each, then answers with text. */
function scriptedModel(steps: Call[][]) {
  let step = 0;
  return new MockLanguageModelV3({
    doGenerate: async () => {
      const calls = steps[step++];
      if (!calls) return { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
      return {
        content: calls.map((call, index) => ({
          type: 'tool-call',
          toolCallId: `call_${step}_${index}`,
          toolName: call.toolName,
          input: JSON.stringify(call.input),
        })),
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage,
        warnings: [],
      };
    },
  });
}

describe('toAiSdkTools', () => {
  it('pins the emitted schema of each tool (advanced)', async () => {
    const host = createFakeToolHost({ profile: 'advanced', shellProfile: 'unix_like', environment: linux });
    const tools = toAiSdkTools(host);
    expect(Object.keys(tools)).toEqual(['exec_command', 'write_stdin', 'apply_patch', 'search_tools', 'code_search']);
    for (const [name, tool] of Object.entries(tools)) {
      const schema = (tool.inputSchema as { jsonSchema: unknown }).jsonSchema;
      expect(schema).toEqual(host.tools.find((definition) => definition.name === name)?.inputSchema);
      await expect(JSON.stringify({ description: tool.description, inputSchema: schema }, null, 2) + '\n').toMatchFileSnapshot(
        `./__pins__/${name}.json`,
      );
    }
  });

  it('drives generateText through several tool calls; errors reach the model as error-text', async () => {
    const host = createFakeToolHost({ environment: linux, commands: [{ match: 'echo hi', output: 'hi\n' }] });
    const model = scriptedModel([
      [{ toolName: 'exec_command', input: { cmd: 'echo hi' } }],
      [{ toolName: 'exec_command', input: { cmd: 'echo hi', max_output_tokens: 0 } }],
    ]);
    const result = await generateText({ model, tools: toAiSdkTools(host), prompt: 'say hi', stopWhen: stepCountIs(5) });
    expect(result.text).toBe('done');
    expect(result.steps).toHaveLength(3);
    const [first, second] = result.steps.map((step) => step.content.find((part) => part.type === 'tool-result'));
    expect(first).toMatchObject({ toolName: 'exec_command', output: { ok: true } });
    const lastPrompt = model.doGenerateCalls[2].prompt;
    const toolMessages = lastPrompt.filter((message) => message.role === 'tool').flatMap((message) => message.content);
    expect(toolMessages.map((part) => (part.type === 'tool-result' ? part.output.type : part.type))).toEqual(['text', 'error-text']);
    expect(toolMessages[1]).toMatchObject({
      output: { value: 'Error [invalid_arguments]: max_output_tokens must be an integer between 1 and 50000' },
    });
    expect(second).toMatchObject({ output: { ok: false, error: { code: 'invalid_arguments' } } });
    expect(host.calls).toHaveLength(2);
  });
});

describe('createAiSdkTools', () => {
  it('adds a deferred catalog tool in the step after search_tools expands it', async () => {
    const host = createFakeToolHost({ environment: linux, catalog });
    const live = createAiSdkTools(host);
    const model = scriptedModel([
      [{ toolName: 'search_tools', input: { query: 'create a github issue' } }],
      [{ toolName: 'github_create_issue', input: { title: 'From the AI SDK' } }],
    ]);
    const result = await generateText({
      model,
      tools: live.tools,
      prepareStep: live.prepareStep,
      prompt: 'file an issue',
      stopWhen: stepCountIs(5),
    });
    expect(result.text).toBe('done');
    const offered = model.doGenerateCalls.map((call) => (call.tools ?? []).map((tool) => tool.name));
    expect(offered[0]).toEqual(['exec_command', 'write_stdin', 'apply_patch', 'search_tools']);
    expect(offered[1]).toEqual(['exec_command', 'write_stdin', 'apply_patch', 'search_tools', 'github_create_issue']);
    expect(host.calls.map((call) => [call.name, call.result.output])).toEqual([
      ['search_tools', expect.stringContaining('github_create_issue')],
      ['github_create_issue', 'Created issue "From the AI SDK" as #1'],
    ]);
  });
});
