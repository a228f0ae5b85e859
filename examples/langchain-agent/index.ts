// A LangChain agent (createAgent) resolving a TODO with toolhost's tools. The chat model is LangChain's scripted
// fakeModel so the example runs without a network or an API key; pass a real chat model to try it live.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { createAgent } from 'langchain';
import { toLangChainTools } from '@toolhost/langchain';
import { createToolHost } from 'toolhost';

const patch = `*** Begin Patch
*** Update File: notes.md
@@
-- TODO: say hello
+- Said hello.
*** End Patch`;

/** Runs the agent in a temporary folder and reports each tool message through `log`. */
export async function main(log: (line: string) => void = console.log): Promise<void> {
  const workspace = mkdtempSync(join(tmpdir(), 'toolhost-langchain-agent-'));
  writeFileSync(join(workspace, 'notes.md'), '# Notes\n- TODO: say hello\n');
  const host = createToolHost({ workspace });
  try {
    const model = fakeModel()
      .respondWithTools([{ name: 'exec_command', args: { cmd: 'grep -rn TODO .' }, id: 'call_1' }])
      .respondWithTools([{ name: 'apply_patch', args: { input: patch.replace('say hello', 'say hi') }, id: 'call_2' }])
      .respondWithTools([{ name: 'apply_patch', args: { input: patch }, id: 'call_3' }])
      .respondWithTools([{ name: 'exec_command', args: { cmd: 'cat notes.md' }, id: 'call_4' }])
      .respond(new AIMessage('The TODO in notes.md is resolved.'));
    const agent = createAgent({ model, tools: toLangChainTools(host), systemPrompt: 'You are a coding agent working in a repository.' });
    const state = await agent.invoke({ messages: [new HumanMessage('Resolve the TODO in this repository.')] });
    for (const message of state.messages) {
      if (ToolMessage.isInstance(message)) {
        const text = message.text;
        const shown = text.includes('Output:\n') ? text.slice(text.indexOf('Output:\n') + 8) : text;
        log(`${message.name} [${message.status}] ${shown.trim().split('\n')[0]}`);
      }
    }
    log(`answer: ${state.messages.at(-1)?.text ?? ''}`);
  } finally {
    await host.close();
    rmSync(workspace, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
