// The agent under test: a system prompt and an AI SDK loop over toolhost's tools. prompt-unit-test.test.ts checks it
// against the fake host from @toolhost/testing, so no model, process or disk is needed; run this file to see one run.
import { pathToFileURL } from 'node:url';
import { generateText, stepCountIs, type LanguageModel } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { createAiSdkTools, type AiSdkToolHost } from '@toolhost/ai-sdk';
import { createFakeToolHost } from '@toolhost/testing';

/** The system prompt whose behaviour the unit test pins. */
export const SYSTEM_PROMPT = [
  'You are a careful coding agent.',
  'Inspect files with exec_command before editing them, edit only with apply_patch,',
  'and after your last edit run the tests with `npm test` and report whether they pass.',
].join(' ');

/** Runs the agent on one task and returns its final answer. */
export async function runAgent(model: LanguageModel, host: AiSdkToolHost, task: string): Promise<string> {
  const tools = createAiSdkTools(host);
  const result = await generateText({
    model,
    system: SYSTEM_PROMPT,
    prompt: task,
    tools: tools.tools,
    prepareStep: tools.prepareStep,
    stopWhen: stepCountIs(12),
  });
  return result.text;
}

/** A scripted model: one tool call per step, then `answer`. */
export function scriptedModel(calls: Array<{ toolName: string; input: unknown }>, answer: string): MockLanguageModelV3 {
  const usage = {
    inputTokens: { total: 0, noCache: 0, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 0, text: 0, reasoning: undefined },
  };
  let step = 0;
  return new MockLanguageModelV3({
    doGenerate: async () => {
      const call = calls[step++];
      if (!call) return { content: [{ type: 'text', text: answer }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
      return {
        content: [{ type: 'tool-call', toolCallId: `call_${step}`, toolName: call.toolName, input: JSON.stringify(call.input) }],
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage,
        warnings: [],
      };
    },
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const host = createFakeToolHost({ files: { 'README.md': '# Demo\n' }, commands: [{ match: 'cat README.md', output: '# Demo\n' }] });
  const answer = await runAgent(
    scriptedModel([{ toolName: 'exec_command', input: { cmd: 'cat README.md' } }], 'The README has a title only.'),
    host,
    'What is in the README?',
  );
  for (const call of host.calls) console.log(`${call.name} ${JSON.stringify(call.args)} → ok ${call.result.ok}`);
  console.log(`answer: ${answer}`);
}
