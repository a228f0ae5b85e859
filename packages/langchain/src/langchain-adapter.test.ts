import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import { createAgent, createMiddleware } from 'langchain';
import { describe, expect, it } from 'vitest';
import { createFakeToolHost } from '@toolhost/testing';
import type { CatalogEntry } from 'toolhost';
import { toLangChainTools, toolHostMiddleware } from './index.js';

const linux = { platform: 'linux', env: {} };
const catalog: CatalogEntry[] = [
  {
    name: 'github_create_issue',
    description: 'Create a GitHub issue in a repository.',
    inputSchema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
    handler: (args) => `Created issue "${String(args.title)}" as #1`,
  },
];

describe('toLangChainTools', () => {
  it('gives LangChain the host JSON Schema unchanged (pinned per tool)', async () => {
    const host = createFakeToolHost({ profile: 'advanced', shellProfile: 'unix_like', environment: linux });
    const tools = toLangChainTools(host);
    expect(tools.map((tool) => tool.name)).toEqual(['exec_command', 'write_stdin', 'apply_patch', 'search_tools', 'code_search']);
    for (const tool of tools) {
      const openAi = convertToOpenAITool(tool);
      expect(openAi.function.parameters).toEqual(host.tools.find((definition) => definition.name === tool.name)?.inputSchema);
      await expect(JSON.stringify(openAi, null, 2) + '\n').toMatchFileSnapshot(`./__pins__/${tool.name}.json`);
    }
  });

  it('lets the host validate: a bad call reaches host.call and comes back as an error ToolMessage', async () => {
    const host = createFakeToolHost({ environment: linux });
    const [exec] = toLangChainTools(host);
    const message = await exec.invoke({ type: 'tool_call', id: 'call_1', name: 'exec_command', args: { cmd: 'ls', max_output_tokens: 0 } });
    expect(message).toBeInstanceOf(ToolMessage);
    expect(message).toMatchObject({
      tool_call_id: 'call_1',
      status: 'error',
      content: 'Error [invalid_arguments]: max_output_tokens must be an integer between 1 and 50000',
    });
    expect((message as ToolMessage).artifact).toMatchObject({ ok: false, error: { code: 'invalid_arguments' } });
    expect(await exec.invoke({ cmd: 'ls', colour: 1 })).toMatch(/^Error \[invalid_arguments\].*unknown field "colour"/);
    expect(host.calls).toHaveLength(2);
  });

  it('runs a tool-calling loop with fakeModel, rebinding tools after search_tools expands the set', async () => {
    const host = createFakeToolHost({ environment: linux, catalog, commands: [{ match: 'git status --short', output: ' M a.ts\n' }] });
    const model = fakeModel()
      .respondWithTools([{ name: 'exec_command', args: { cmd: 'git status --short' }, id: 'c1' }])
      .respondWithTools([{ name: 'search_tools', args: { query: 'github issue' }, id: 'c2' }])
      .respondWithTools([{ name: 'github_create_issue', args: { title: 'LangChain loop' }, id: 'c3' }])
      .respond(new AIMessage('Filed the issue.'));
    const messages: BaseMessage[] = [new HumanMessage('Check the tree and file an issue.')];
    const offered: string[][] = [];
    for (let step = 0; step < 6; step++) {
      host.nextSegment();
      const tools = toLangChainTools(host, { perRequest: true });
      offered.push(tools.map((tool) => tool.name));
      const reply = (await model.bindTools(tools).invoke(messages)) as AIMessage;
      messages.push(reply);
      if (!reply.tool_calls?.length) break;
      for (const call of reply.tool_calls) {
        const tool = tools.find((candidate) => candidate.name === call.name);
        messages.push(
          tool
            ? ((await tool.invoke({ ...call, type: 'tool_call' })) as ToolMessage)
            : new ToolMessage({ content: `unknown tool ${call.name}`, tool_call_id: call.id ?? '' }),
        );
      }
    }
    expect(messages.at(-1)?.content).toBe('Filed the issue.');
    expect(offered[2]).toContain('github_create_issue');
    expect(offered[1]).not.toContain('github_create_issue');
    const toolMessages = messages.filter((message): message is ToolMessage => message instanceof ToolMessage);
    expect(toolMessages.map((message) => [message.tool_call_id, message.status])).toEqual([
      ['c1', 'success'],
      ['c2', 'success'],
      ['c3', 'success'],
    ]);
    expect(toolMessages[0].content).toMatch(/Process exited with code 0[\s\S]*Output:\n M a\.ts\n$/);
    expect(toolMessages[2].content).toBe('Created issue "LangChain loop" as #1');
  });

  it('works as the tools of createAgent', async () => {
    const host = createFakeToolHost({ environment: linux, commands: [{ match: 'ls', output: 'README.md\n' }] });
    const model = fakeModel()
      .respondWithTools([{ name: 'exec_command', args: { cmd: 'ls' }, id: 'a1' }])
      .respondWithTools([{ name: 'write_stdin', args: { session_id: 9, chars: '' }, id: 'a2' }])
      .respond(new AIMessage('The folder has a README.'));
    const agent = createAgent({ model, tools: toLangChainTools(host) });
    const state = await agent.invoke({ messages: [new HumanMessage('What is in the folder?')] });
    const toolMessages = state.messages.filter((message) => ToolMessage.isInstance(message));
    expect(toolMessages.map((message) => message.status)).toEqual(['success', 'error']);
    expect(toolMessages[0].content).toMatch(/Output:\nREADME\.md\n$/);
    expect(toolMessages[1].content).toMatch(/^Error \[unknown_session\]/);
    expect(state.messages.at(-1)?.content).toBe('The folder has a README.');
  });

  it('createAgent with toolHostMiddleware calls a tool as soon as search_tools loaded it', async () => {
    const host = createFakeToolHost({ environment: linux, catalog });
    const model = fakeModel()
      .respondWithTools([{ name: 'search_tools', args: { query: 'github issue' }, id: 's1' }])
      .respondWithTools([{ name: 'github_create_issue', args: { title: 'From the agent' }, id: 's2' }])
      .respond(new AIMessage('Filed the issue.'));
    const offered: string[][] = [];
    // Placed after the host's middleware, so it sees the tools the model is given.
    const recorder = createMiddleware({
      name: 'OfferedTools',
      wrapModelCall: (request, handler) => {
        offered.push(request.tools.map((tool) => String((tool as { name: string }).name)));
        return handler(request);
      },
    });
    const agent = createAgent({ model, middleware: [toolHostMiddleware(host), recorder] });
    const state = await agent.invoke({ messages: [new HumanMessage('File an issue.')] });
    const toolMessages = state.messages.filter((message) => ToolMessage.isInstance(message));
    expect(toolMessages.map((message) => [message.tool_call_id, message.status])).toEqual([
      ['s1', 'success'],
      ['s2', 'success'],
    ]);
    expect(toolMessages[0].content).toContain('Loaded for your next request (callable from then on): github_create_issue.');
    expect(toolMessages[1].content).toBe('Created issue "From the agent" as #1');
    expect(offered[0]).not.toContain('github_create_issue');
    expect(offered[1]).toContain('github_create_issue');
    expect(offered[1].slice(0, 4)).toEqual(['exec_command', 'write_stdin', 'apply_patch', 'search_tools']);
    expect(state.messages.at(-1)?.content).toBe('Filed the issue.');
  });

  it('toolHostMiddleware lets the host answer a catalog tool called before search_tools loaded it', async () => {
    const host = createFakeToolHost({ environment: linux, catalog });
    const model = fakeModel()
      .respondWithTools([{ name: 'github_create_issue', args: { title: 'Too early' }, id: 'e1' }])
      .respond(new AIMessage('Stopped.'));
    const agent = createAgent({ model, middleware: [toolHostMiddleware(host)] });
    const state = await agent.invoke({ messages: [new HumanMessage('File an issue.')] });
    const [answer] = state.messages.filter((message) => ToolMessage.isInstance(message));
    expect(answer.status).toBe('error');
    expect(answer.content).toBe(
      'Error [unknown_tool]: github_create_issue is not loaded. Call search_tools with {"query":"github_create_issue"} first; it becomes callable in the next request.',
    );
  });

  it('with a fixed tool list, search_tools does not call a tool it cannot offer callable', async () => {
    const host = createFakeToolHost({ environment: linux, catalog });
    const model = fakeModel()
      .respondWithTools([{ name: 'search_tools', args: { query: 'github issue' }, id: 'f1' }])
      .respond(new AIMessage('I cannot file it.'));
    const agent = createAgent({ model, tools: toLangChainTools(host) });
    const state = await agent.invoke({ messages: [new HumanMessage('File an issue.')] });
    const [answer] = state.messages.filter((message) => ToolMessage.isInstance(message));
    expect(answer.content).toBe(
      'github_create_issue: Create a GitHub issue in a repository.\n\n' +
        'Not callable in this agent (its tool list was fixed when it was created): github_create_issue.',
    );
    expect(answer.content).not.toContain('callable from then on');
  });
});
