// @toolhost/langchain from the installed packages: a tool-calling loop driven by LangChain's fake chat model.
import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { issueTool, withHost } from './helpers.mjs';

export default [
  {
    name: 'a fakeModel loop runs exec_command, search_tools and the found tool',
    async run(context) {
      const { assert, load } = context;
      const { toLangChainTools } = await load('@toolhost/langchain');
      await withHost(context, { workspace: context.tempWorkspace(), catalog: [issueTool] }, async (host) => {
        const model = fakeModel()
          .respondWithTools([{ name: 'exec_command', args: { cmd: 'echo from-langchain' }, id: 'c1' }])
          .respondWithTools([{ name: 'search_tools', args: { query: 'github issue' }, id: 'c2' }])
          .respondWithTools([{ name: 'github_create_issue', args: { title: 'LangChain' }, id: 'c3' }])
          .respond(new AIMessage('Filed.'));
        const messages = [new HumanMessage('go')];
        const answers = [];
        for (let step = 0; step < 6; step++) {
          host.nextSegment();
          const tools = toLangChainTools(host, { perRequest: true });
          const reply = await model.bindTools(tools).invoke(messages);
          messages.push(reply);
          if (!reply.tool_calls?.length) break;
          for (const call of reply.tool_calls) {
            const tool = tools.find((candidate) => candidate.name === call.name);
            assert.ok(tool, `${call.name} is offered`);
            const message = await tool.invoke({ ...call, type: 'tool_call' });
            answers.push(message.content);
            messages.push(message);
          }
        }
        assert.equal(messages.at(-1).content, 'Filed.');
        assert.equal(answers.length, 3);
        assert.match(answers[0], /Output:\nfrom-langchain\n$/);
        assert.equal(answers[2], 'Created issue "LangChain" as #1');
      });
    },
  },
  {
    name: 'createAgent with toolHostMiddleware calls the tool search_tools loaded, at the next model call',
    async run(context) {
      const { assert, load } = context;
      const { toolHostMiddleware } = await load('@toolhost/langchain');
      const { createAgent } = await load('langchain');
      await withHost(context, { workspace: context.tempWorkspace(), catalog: [issueTool] }, async (host) => {
        const model = fakeModel()
          .respondWithTools([{ name: 'search_tools', args: { query: 'github issue' }, id: 'm1' }])
          .respondWithTools([{ name: 'github_create_issue', args: { title: 'Agent' }, id: 'm2' }])
          .respond(new AIMessage('Filed.'));
        const agent = createAgent({ model, middleware: [toolHostMiddleware(host)] });
        const state = await agent.invoke({ messages: [new HumanMessage('File an issue.')] });
        const answers = state.messages.filter((message) => message.getType() === 'tool');
        assert.deepEqual(
          answers.map((message) => message.status),
          ['success', 'success'],
        );
        assert.equal(answers[1].content, 'Created issue "Agent" as #1');
        assert.equal(state.messages.at(-1).content, 'Filed.');
      });
    },
  },
];
