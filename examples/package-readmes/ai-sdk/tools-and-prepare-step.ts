// The README of @toolhost/ai-sdk shows the region below verbatim (test/package-readme-examples.test.ts), so it compiles
// against the current API; it is type-checked, never imported or run.
import type { LanguageModel } from 'ai';
import type { ToolHost } from 'toolhost';

declare const host: ToolHost;
declare const model: LanguageModel;
declare const prompt: string;

// #region readme
import { generateText, stepCountIs } from 'ai';
import { createAiSdkTools } from '@toolhost/ai-sdk';

const live = createAiSdkTools(host);
await generateText({ model, tools: live.tools, prepareStep: live.prepareStep, prompt, stopWhen: stepCountIs(20) });
// #endregion readme
