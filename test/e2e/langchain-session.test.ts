// A LangChain tool-calling loop (fakeModel) completes the scripted session against the real host and the fake host.
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { toLangChainTools } from '@toolhost/langchain';
import type { ToolHost } from 'toolhost';
import { SESSION, createFakeSessionHost, createRealSessionHost, expectSessionOutputs, normalizeOutput } from './session-script.js';

async function runSession(host: Pick<ToolHost, 'tools' | 'call' | 'nextSegment'>): Promise<string[]> {
  let model = fakeModel();
  SESSION.forEach((call, index) => {
    model = model.respondWithTools([{ name: call.name, args: call.args, id: `call_${index}` }]);
  });
  model = model.respond(new AIMessage('Session complete.'));
  const messages: BaseMessage[] = [new HumanMessage('Run the session.')];
  for (let step = 0; step <= SESSION.length; step++) {
    host.nextSegment();
    const tools = toLangChainTools(host);
    const reply = (await model.bindTools(tools).invoke(messages)) as AIMessage;
    messages.push(reply);
    if (!reply.tool_calls?.length) break;
    for (const call of reply.tool_calls) {
      const tool = tools.find((candidate) => candidate.name === call.name);
      if (!tool) throw new Error(`the loop offered no tool ${call.name}`);
      messages.push((await tool.invoke({ ...call, type: 'tool_call' })) as ToolMessage);
    }
  }
  expect(messages.at(-1)?.content).toBe('Session complete.');
  return messages.filter((message): message is ToolMessage => ToolMessage.isInstance(message)).map((message) => message.text);
}

describe('LangChain loop: scripted session', () => {
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
    expect(real.read('greeting.txt')).toBe(fake.files()['greeting.txt']);
  });
});
