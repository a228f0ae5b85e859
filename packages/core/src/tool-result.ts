import type { ErrorCode } from './error-code.js';

/** A JSON Schema object as emitted for a tool's input. */
export type JsonSchema = { [key: string]: unknown };

/** The freeform (grammar-constrained) form of a tool, for providers that support it. */
export interface FreeformFormat {
  syntax: 'lark';
  definition: string;
}

/**
 * What a tool does, so that adapters find the tools a provider's native tool replaces without naming them: `shell`
 * runs a command, `shell-input` talks to a running one, `edit` changes files, `search` reads the workspace, `catalog`
 * finds more tools.
 */
export type ToolRole = 'shell' | 'shell-input' | 'edit' | 'search' | 'catalog';

/** What a client may assume about a tool before calling it (MCP's tool annotations). */
export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/**
 * A tool as the model sees it. A built-in tool's `outputSchema`, `annotations` and `role` are for adapters and are not
 * enumerable, so the definition's JSON is the model's view alone.
 */
export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  freeform?: FreeformFormat;
  /** The JSON Schema of the result's `data` (a built-in tool's). */
  outputSchema?: JsonSchema;
  /** Hints on the tool's effects (a built-in tool's). */
  annotations?: ToolAnnotations;
  /** What the tool does (a built-in tool's). */
  role?: ToolRole;
}

/** The error part of a failed tool result. */
export interface ToolErrorInfo {
  code: ErrorCode;
  message: string;
}

/** The structured part of a result. */
export type ToolData = Record<string, unknown>;

/** A successful tool call; `output` is the exact model-visible text. */
export interface ToolSuccess<Data extends ToolData = ToolData> {
  ok: true;
  output: string;
  data?: Data;
  error?: never;
}

/** A failed tool call; `output` is the error text the model reads. */
export interface ToolFailure<Data extends ToolData = ToolData> {
  ok: false;
  output: string;
  data?: Data;
  error: ToolErrorInfo;
}

/** The result of one tool call, told apart by `ok`; `data` is typed by the tool when it is known. */
export type ToolResult<Data extends ToolData = ToolData> = ToolSuccess<Data> | ToolFailure<Data>;

/** Builds a successful result. */
export function okResult<Data extends ToolData = ToolData>(output: string, data?: Data): ToolSuccess<Data> {
  return data === undefined ? { ok: true, output } : { ok: true, output, data };
}

/** Builds a failed result whose output is the error message the model reads. */
export function errorResult<Data extends ToolData = ToolData>(code: ErrorCode, message: string, data?: Data): ToolFailure<Data> {
  const result: ToolFailure<Data> = { ok: false, output: `Error [${code}]: ${message}`, error: { code, message } };
  if (data !== undefined) result.data = data;
  return result;
}
