// The TSDoc @example of toAnthropicTools (@toolhost/anthropic) is the region below, verbatim (test/tsdoc-
// examples.test.ts), so it compiles against the current API; it is type-checked, never imported or run.
// #region example
import Anthropic from '@anthropic-ai/sdk';
import { answerToolUses, toAnthropicTools } from '@toolhost/anthropic';
import { createToolHost } from 'toolhost';

const client = new Anthropic();
const host = createToolHost({ workspace: '/abs/path/to/repo' });
const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'Fix the failing test.' }];
for (let turn = 0; turn < 20; turn++) {
  const message = await client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 4096, messages, tools: toAnthropicTools(host) });
  messages.push({ role: 'assistant', content: message.content });
  if (message.stop_reason !== 'tool_use') break;
  messages.push({ role: 'user', content: await answerToolUses(message.content, host) });
  host.nextSegment();
}
await host.close();
// #endregion example
