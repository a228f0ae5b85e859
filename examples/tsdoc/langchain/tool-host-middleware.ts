// The TSDoc @example of toolHostMiddleware (@toolhost/langchain) is the region below, verbatim (test/tsdoc-
// examples.test.ts), so it compiles against the current API; it is type-checked, never imported or run.
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { CatalogEntry } from 'toolhost';

declare const model: BaseChatModel;
declare const catalog: CatalogEntry[];

// #region example
import { createAgent } from 'langchain';
import { toolHostMiddleware } from '@toolhost/langchain';
import { createToolHost } from 'toolhost';

const host = createToolHost({ workspace: '/abs/path/to/repo', catalog });
const agent = createAgent({ model, middleware: [toolHostMiddleware(host)] });
const state = await agent.invoke({ messages: [{ role: 'user', content: 'File an issue for the failing test.' }] });
await host.close();
// #endregion example

// Read here so the linter sees the names the example leaves for the reader to use.
void state;
