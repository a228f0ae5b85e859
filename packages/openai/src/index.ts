export { toResponsesTools, type ResponsesToolsOptions } from './responses-tools.js';
export { answerResponsesCalls, type AnswerResponsesOptions, type ResponsesToolCall } from './answer-responses-calls.js';
export { toStrictJsonSchema, stripNulls, allowsNull } from './strict-json-schema.js';
export {
  runApplyPatchOperation,
  toFileOperation,
  type ApplyPatchHost,
  type ApplyPatchOperation,
  type ApplyPatchOperationOutcome,
} from './apply-patch-operation.js';
export {
  runShellCommands,
  limitOutputLength,
  DEFAULT_SHELL_TIMEOUT_MS,
  type ShellCommandsAction,
  type ShellCommandOutcome,
  type ShellCommandsOptions,
} from './shell-commands.js';
export { createAgentsEditor, type AgentsEditor, type AgentsEditorResult } from './agents-editor.js';
export { createAgentsShell, type AgentsShell, type AgentsShellAction, type AgentsShellOutput } from './agents-shell.js';
export type {
  ResponsesTool,
  ResponsesFunctionTool,
  ResponsesCustomTool,
  ResponsesApplyPatchTool,
  ResponsesShellTool,
  ResponsesFunctionCall,
  ResponsesCustomToolCall,
  ResponsesApplyPatchCall,
  ResponsesShellCall,
  ResponsesFunctionCallOutput,
  ResponsesCustomToolCallOutput,
  ResponsesApplyPatchCallOutput,
  ResponsesShellCommandOutput,
  ResponsesShellCallOutput,
  ResponsesCallOutput,
} from './responses-types.js';
