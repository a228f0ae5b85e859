// The README of @toolhost/anthropic shows the region below verbatim (test/package-readme-examples.test.ts), so it compiles
// against the current API; it is type-checked, never imported or run.
import type { ToolHost } from 'toolhost';

declare const host: ToolHost;
/** The Messages API response whose tool_use blocks are answered. */
declare const message: { content: Parameters<typeof answerToolUses>[0] };

// #region readme
import { toAnthropicTools, answerToolUses } from '@toolhost/anthropic';

const tools = toAnthropicTools(host); // Messages API `tools`
const results = await answerToolUses(message.content, host); // tool_result blocks for the next user turn
// #endregion readme

// Read here so the linter sees the names the README leaves for the reader to use.
void tools;
void results;
