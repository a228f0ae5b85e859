import type { ErrorCode } from './error-code.js';

/** A JSON Schema object as emitted for a tool's input. */
export type JsonSchema = { [key: string]: unknown };

/** The freeform (grammar-constrained) form of a tool, for providers that support it. */
export interface FreeformFormat {
  syntax: 'lark';
  definition: string;
}

/** A tool as the model sees it. */
export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  freeform?: FreeformFormat;
}

/** The error part of a failed tool result. */
export interface ToolErrorInfo {
  code: ErrorCode;
  message: string;
}

/** The result of one tool call; `output` is the exact model-visible text. */
export interface ToolResult {
  ok: boolean;
  output: string;
  data?: Record<string, unknown>;
  error?: ToolErrorInfo;
}

/** Builds a successful result. */
export function okResult(output: string, data?: Record<string, unknown>): ToolResult {
  return data === undefined ? { ok: true, output } : { ok: true, output, data };
}

/** Builds a failed result whose output is the error message the model reads. */
export function errorResult(code: ErrorCode, message: string, data?: Record<string, unknown>): ToolResult {
  const result: ToolResult = { ok: false, output: `Error [${code}]: ${message}`, error: { code, message } };
  if (data !== undefined) result.data = data;
  return result;
}
