// The README of @toolhost/ai-sdk shows the region below verbatim (test/package-readme-examples.test.ts), so it compiles
// against the current API; it is type-checked, never imported or run.
import { generateText, type LanguageModel } from 'ai';
import { createAiSdkTools } from '@toolhost/ai-sdk';
import type { ToolHost } from 'toolhost';

/** Prints each exec_command call's command and outcome: the step results narrow by tool name. */
export async function printCommandResults(host: ToolHost, model: LanguageModel, prompt: string): Promise<void> {
  const live = createAiSdkTools(host);
  // #region readme
  const result = await generateText({ model, tools: live.tools, prepareStep: live.prepareStep, prompt });
  for (const call of result.steps.flatMap((step) => step.toolResults)) {
    if (!call.dynamic && call.toolName === 'exec_command') console.log(call.input.cmd, call.output.ok, call.output.data?.exit_code);
  }
  // #endregion readme
}
