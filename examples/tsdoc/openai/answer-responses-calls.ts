// The TSDoc @example of answerResponsesCalls (@toolhost/openai) is the region below, verbatim (test/tsdoc-
// examples.test.ts), so it compiles against the current API; it is type-checked, never imported or run.
import { answerResponsesCalls, toResponsesTools } from '@toolhost/openai';
import type OpenAI from 'openai';
import type { ToolHost } from 'toolhost';

declare const client: OpenAI;
declare const input: OpenAI.Responses.ResponseInput;
declare const host: ToolHost;

// #region example
const response = await client.responses.create({ model: 'gpt-5', input, tools: toResponsesTools(host, { native: true }) });
const outputs = await answerResponsesCalls(response.output, host); // send these back with the next request
// #endregion example

// Read here so the linter sees the names the example leaves for the reader to use.
void outputs;
