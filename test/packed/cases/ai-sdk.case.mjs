// @toolhost/ai-sdk from the installed packages: a generateText tool loop on MockLanguageModelV3 over a real host.
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { issueTool, withHost } from './helpers.mjs';

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

function scriptedModel(steps) {
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

export default [
  {
    name: 'generateText runs exec_command, search_tools and the found tool',
    async run(context) {
      const { assert, load } = context;
      const { createAiSdkTools } = await load('@toolhost/ai-sdk');
      await withHost(context, { workspace: context.tempWorkspace(), catalog: [issueTool] }, async (host) => {
        const live = createAiSdkTools(host);
        const model = scriptedModel([
          [{ toolName: 'exec_command', input: { cmd: 'echo from-ai-sdk' } }],
          [{ toolName: 'search_tools', input: { query: 'create a github issue' } }],
          [{ toolName: 'github_create_issue', input: { title: 'From the AI SDK' } }],
        ]);
        const result = await generateText({
          model,
          tools: live.tools,
          prepareStep: live.prepareStep,
          prompt: 'go',
          stopWhen: stepCountIs(6),
        });
        assert.equal(result.text, 'done');
        const outputs = result.steps.flatMap((step) => step.content.filter((part) => part.type === 'tool-result'));
        assert.deepEqual(
          outputs.map((part) => part.toolName),
          ['exec_command', 'search_tools', 'github_create_issue'],
        );
        assert.match(outputs[0].output.output, /Output:\nfrom-ai-sdk\n$/);
        assert.equal(outputs[2].output.output, 'Created issue "From the AI SDK" as #1');
      });
    },
  },
];
