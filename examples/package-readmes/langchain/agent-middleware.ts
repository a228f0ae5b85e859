// The README of @toolhost/langchain shows the region below verbatim (test/package-readme-examples.test.ts), so it compiles
// against the current API; it is type-checked, never imported or run.
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { ToolHost } from 'toolhost';

declare const host: ToolHost;
declare const model: BaseChatModel;

// #region readme
import { createAgent } from 'langchain';
import { toolHostMiddleware } from '@toolhost/langchain';

const agent = createAgent({ model, middleware: [toolHostMiddleware(host)] });
// #endregion readme

// Read here so the linter sees the names the README leaves for the reader to use.
void agent;
