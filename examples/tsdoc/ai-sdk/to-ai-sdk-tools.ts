// The TSDoc @example of toAiSdkTools (@toolhost/ai-sdk) is the region below, verbatim (test/tsdoc-examples.test.ts), so
// it compiles against the current API; it is type-checked, never imported or run.
import { generateText, stepCountIs, type LanguageModel } from 'ai';
import { toAiSdkTools } from '@toolhost/ai-sdk';
import type { ToolHost } from 'toolhost';

declare const host: ToolHost;
declare const model: LanguageModel;

// #region example
const result = await generateText({ model, tools: toAiSdkTools(host), prompt: 'Run the tests.', stopWhen: stepCountIs(10) });
// #endregion example

// Read here so the linter sees the names the example leaves for the reader to use.
void result;
