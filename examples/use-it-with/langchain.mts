import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { createAgent } from 'langchain';
import { toolHostMiddleware } from '@toolhost/langchain';
import { createToolHost } from 'toolhost';

// A scripted model: one command, then an answer. Put your provider's chat model here.
const model = fakeModel()
  .respondWithTools([{ name: 'exec_command', args: { cmd: 'ls' }, id: 'call_1' }])
  .respond(new AIMessage('Listed the folder.'));

async function main() {
  const host = createToolHost({ workspace: process.cwd() });
  try {
    // The middleware offers each model call the host's tools of that request: what search_tools loads is callable next.
    const agent = createAgent({ model, middleware: [toolHostMiddleware(host)] });
    const state = await agent.invoke({ messages: [new HumanMessage('What is here?')] });
    console.log(state.messages.at(-1)?.content);
  } finally {
    await host.close();
  }
}

void main();
