// The README of @toolhost/openai shows the region below verbatim (test/package-readme-examples.test.ts), so it compiles
// against the current API; it is type-checked, never imported or run.
import type { ToolHost } from 'toolhost';

declare const host: ToolHost;
/** The Responses API response whose tool calls are answered. */
declare const response: { output: Parameters<typeof answerResponsesCalls>[0] };

// #region readme
import { toResponsesTools, answerResponsesCalls } from '@toolhost/openai';

const tools = toResponsesTools(host); // Responses API `tools`
const outputs = await answerResponsesCalls(response.output, host); // function_call_output / custom_tool_call_output items
// #endregion readme

// Read here so the linter sees the names the README leaves for the reader to use.
void tools;
void outputs;
