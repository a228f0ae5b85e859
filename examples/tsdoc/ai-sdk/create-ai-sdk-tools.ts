// The TSDoc @example of createAiSdkTools (@toolhost/ai-sdk) is the region below, verbatim (test/tsdoc-
// examples.test.ts), so it compiles against the current API; it is type-checked, never imported or run.
import type { LanguageModel } from 'ai';

declare const model: LanguageModel;

// #region example
import { generateText, stepCountIs } from 'ai';
import { createAiSdkTools } from '@toolhost/ai-sdk';
import { createToolHost } from 'toolhost';

const host = createToolHost({ workspace: '/abs/path/to/repo' });
const live = createAiSdkTools(host);
const result = await generateText({
  model,
  tools: live.tools,
  prepareStep: live.prepareStep,
  prompt: 'Fix the failing test.',
  stopWhen: stepCountIs(20),
});
for (const call of result.steps.flatMap((step) => step.toolResults)) {
  if (!call.dynamic && call.toolName === 'exec_command') console.log(call.input.cmd, call.output.ok);
}
await host.close();
// #endregion example
