import type { JsonSchema } from 'toolhost';

/** A Responses API function tool. */
export interface ResponsesFunctionTool {
  type: 'function';
  name: string;
  description: string;
  parameters: JsonSchema;
  strict: boolean;
}

/** A Responses API custom tool whose input is constrained by a Lark grammar. */
export interface ResponsesCustomTool {
  type: 'custom';
  name: string;
  description: string;
  format: { type: 'grammar'; syntax: 'lark'; definition: string };
}

/** A tool definition for the Responses API `tools` array. */
export type ResponsesTool = ResponsesFunctionTool | ResponsesCustomTool;

/** A `function_call` output item of a response. */
export interface ResponsesFunctionCall {
  type: 'function_call';
  call_id: string;
  name: string;
  /** JSON-encoded arguments. */
  arguments: string;
  id?: string;
  status?: string;
}

/** A `custom_tool_call` output item of a response. */
export interface ResponsesCustomToolCall {
  type: 'custom_tool_call';
  call_id: string;
  name: string;
  /** The raw grammar-constrained input. */
  input: string;
  id?: string;
}

/** The answer to a `function_call`, to send back as an input item. */
export interface ResponsesFunctionCallOutput {
  type: 'function_call_output';
  call_id: string;
  output: string;
}

/** The answer to a `custom_tool_call`, to send back as an input item. */
export interface ResponsesCustomToolCallOutput {
  type: 'custom_tool_call_output';
  call_id: string;
  output: string;
}

/** An input item answering one tool call. */
export type ResponsesCallOutput = ResponsesFunctionCallOutput | ResponsesCustomToolCallOutput;
