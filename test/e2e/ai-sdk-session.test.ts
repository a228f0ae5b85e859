// An AI SDK generateText loop completes the scripted session against the real host and against the fake host.
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterAll, describe, expect, it } from 'vitest';
import { createAiSdkTools, type AiSdkToolHost } from '@toolhost/ai-sdk';
import { SESSION, createFakeSessionHost, createRealSessionHost, expectSessionOutputs, normalizeOutput } from './session-script.js';

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

async function runSession(host: AiSdkToolHost): Promise<string[]> {
  let step = 0;
  const model = new MockLanguageModelV3({
    doGenerate: async () => {
      const call = SESSION[step++];
      if (!call)
        return {
          content: [{ type: 'text', text: 'Session complete.' }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage,
          warnings: [],
        };
      return {
        content: [{ type: 'tool-call', toolCallId: `call_${step}`, toolName: call.name, input: JSON.stringify(call.args) }],
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage,
        warnings: [],
      };
    },
  });
  const live = createAiSdkTools(host);
  const result = await generateText({
    model,
    tools: live.tools,
    prepareStep: live.prepareStep,
    prompt: 'Run the session.',
    stopWhen: stepCountIs(10),
  });
  expect(result.text).toBe('Session complete.');
  const lastPrompt = model.doGenerateCalls.at(-1)!.prompt;
  return lastPrompt
    .filter((message) => message.role === 'tool')
    .flatMap((message) => message.content)
    .map((part) =>
      part.type === 'tool-result' && (part.output.type === 'text' || part.output.type === 'error-text')
        ? part.output.value
        : JSON.stringify(part),
    );
}

describe('AI SDK loop: scripted session', () => {
  const real = createRealSessionHost();
  const fake = createFakeSessionHost();
  afterAll(async () => {
    await real.dispose();
    await fake.close();
  });

  it('completes against the real host and the fake host with the same outputs', async () => {
    const realOutputs = await runSession(real.host);
    const fakeOutputs = await runSession(fake);
    expectSessionOutputs(realOutputs);
    expectSessionOutputs(fakeOutputs);
    expect(fakeOutputs.map(normalizeOutput)).toEqual(realOutputs.map(normalizeOutput));
    expect(real.read('greeting.txt')).toBe('hello toolhost\n');
    expect(fake.files()['greeting.txt']).toBe('hello toolhost\n');
  });
});
