// The Responses API shapes this adapter emits and reads, from the official `openai` package (types only).
import type {
  ApplyPatchTool,
  CustomTool,
  FunctionShellTool,
  FunctionTool,
  ResponseApplyPatchToolCall,
  ResponseCustomToolCall,
  ResponseCustomToolCallOutput,
  ResponseFunctionShellCallOutputContent,
  ResponseFunctionShellToolCall,
  ResponseFunctionToolCall,
  ResponseInputItem,
} from 'openai/resources/responses/responses';

/** A Responses API function tool. */
export type ResponsesFunctionTool = FunctionTool & { description: string; parameters: Record<string, unknown>; strict: boolean };

/** A Responses API custom tool whose input is constrained by a Lark grammar. */
export type ResponsesCustomTool = CustomTool & { description: string; format: { type: 'grammar'; syntax: 'lark'; definition: string } };

/** The Responses API's own apply_patch tool (`native: true`). */
export type ResponsesApplyPatchTool = ApplyPatchTool;

/** The Responses API's own shell tool (`native: true`). */
export type ResponsesShellTool = FunctionShellTool;

/** A tool definition for the Responses API `tools` array. */
export type ResponsesTool = ResponsesFunctionTool | ResponsesCustomTool | ResponsesApplyPatchTool | ResponsesShellTool;

/** A `function_call` output item of a response. */
export type ResponsesFunctionCall = ResponseFunctionToolCall;

/** A `custom_tool_call` output item of a response. */
export type ResponsesCustomToolCall = ResponseCustomToolCall;

/** An `apply_patch_call` output item of a response: one file operation with a V4A diff. */
export type ResponsesApplyPatchCall = ResponseApplyPatchToolCall;

/** A `shell_call` output item of a response: commands to run in order. */
export type ResponsesShellCall = ResponseFunctionShellToolCall;

/** The answer to a `function_call`, to send back as an input item. */
export type ResponsesFunctionCallOutput = ResponseInputItem.FunctionCallOutput & { output: string };

/** The answer to a `custom_tool_call`, to send back as an input item. */
export type ResponsesCustomToolCallOutput = ResponseCustomToolCallOutput & { output: string };

/** The answer to an `apply_patch_call`: `failed` with the fix-it text when nothing was written; the call's `caller` when it had one. */
export type ResponsesApplyPatchCallOutput = ResponseInputItem.ApplyPatchCallOutput & { output: string };

/** One command's result inside a `shell_call_output`. */
export type ResponsesShellCommandOutput = ResponseFunctionShellCallOutputContent;

/** The answer to a `shell_call`: one entry per command; the call's `caller` when it had one. */
export type ResponsesShellCallOutput = ResponseInputItem.ShellCallOutput;

/** An input item answering one tool call. */
export type ResponsesCallOutput =
  ResponsesFunctionCallOutput | ResponsesCustomToolCallOutput | ResponsesApplyPatchCallOutput | ResponsesShellCallOutput;
