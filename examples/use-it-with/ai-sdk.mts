import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { createAiSdkTools } from '@toolhost/ai-sdk';
import { createToolHost } from 'toolhost';

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};
// A scripted model (AI SDK 7's mock): one command, then an answer. Put your provider's model here.
const model = new MockLanguageModelV4({
  doGenerate: [
    {
      content: [{ type: 'tool-call', toolCallId: 'call_1', toolName: 'exec_command', input: JSON.stringify({ cmd: 'ls' }) }],
      finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
      usage,
      warnings: [],
    },
    { content: [{ type: 'text', text: 'Listed the folder.' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] },
  ],
});

async function main() {
  const host = createToolHost({ workspace: process.cwd() });
  try {
    const live = createAiSdkTools(host);
    const result = await generateText({
      model,
      tools: live.tools,
      prepareStep: live.prepareStep,
      prompt: 'What is here?',
      stopWhen: stepCountIs(10),
    });
    for (const call of result.steps.flatMap((step) => step.toolResults)) {
      if (!call.dynamic && call.toolName === 'exec_command') console.log(call.input.cmd, call.output.ok);
    }
    console.log(result.text);
  } finally {
    await host.close();
  }
}

void main();
