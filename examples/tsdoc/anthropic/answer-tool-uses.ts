// The TSDoc @example of answerToolUses (@toolhost/anthropic) is the region below, verbatim (test/tsdoc-
// examples.test.ts), so it compiles against the current API; it is type-checked, never imported or run.
import { answerToolUses, toAnthropicTools } from '@toolhost/anthropic';
import type Anthropic from '@anthropic-ai/sdk';
import type { ToolHost } from 'toolhost';

declare const client: Anthropic;
declare const model: Anthropic.Model;
declare const messages: Anthropic.MessageParam[];
declare const host: ToolHost;

// #region example
const message = await client.messages.create({ model, max_tokens: 4096, messages, tools: toAnthropicTools(host, { native: true }) });
messages.push({ role: 'assistant', content: message.content }, { role: 'user', content: await answerToolUses(message.content, host) });
// #endregion example
