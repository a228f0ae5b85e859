// The TSDoc @example of toLangChainTools (@toolhost/langchain) is the region below, verbatim (test/tsdoc-
// examples.test.ts), so it compiles against the current API; it is type-checked, never imported or run.
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';

declare const model: BaseChatModel;

// #region example
import { createAgent } from 'langchain';
import { toLangChainTools } from '@toolhost/langchain';
import { createToolHost } from 'toolhost';

const host = createToolHost({ workspace: '/abs/path/to/repo' });
const agent = createAgent({ model, tools: toLangChainTools(host), systemPrompt: 'You are a coding agent.' });
const state = await agent.invoke({ messages: [{ role: 'user', content: 'Fix the failing test.' }] });
await host.close();
// #endregion example

// Read here so the linter sees the names the example leaves for the reader to use.
void state;
