// The built-in tools' arguments written out as plain types, so that typing a call needs none of the tool packages'
// declarations (code_search's pull in the parser runtime's); builtin-tool-inputs.test.ts checks them against the schemas.

/** exec_command arguments as a model sends them. */
export interface ExecCommandInput {
  /** Command text to run in the shell. */
  cmd: string;
  /** Working directory inside the workspace (default: its root). */
  workdir?: string;
  /** Allocate a PTY (default false). */
  tty?: boolean;
  /** How long to wait for output, in milliseconds (default 10000; clamped to 250..30000). */
  yield_time_ms?: number;
  /** Output budget in tokens (default 10000). */
  max_output_tokens?: number;
  /** `require_escalated` asks the gateway to run the command outside the default sandbox. */
  sandbox_permissions?: 'use_default' | 'require_escalated';
  /** Why escalated permissions are needed. */
  justification?: string;
}

/** write_stdin arguments as a model sends them. */
export interface WriteStdinInput {
  /** The session of a running exec_command. */
  session_id: number;
  /** Text to write; empty to only read new output. */
  chars: string;
  /** How long to wait for output, in milliseconds (default 250; clamped to 250..30000). */
  yield_time_ms?: number;
  /** Output budget in tokens (default 10000). */
  max_output_tokens?: number;
}

/** apply_patch arguments as a model sends them (the function form; the freeform form is the patch text itself). */
export interface ApplyPatchInput {
  /** The whole patch, from `*** Begin Patch` to `*** End Patch`. */
  input: string;
  /** Output budget in tokens (default 10000). */
  max_output_tokens?: number;
}

/** search_tools arguments as a model sends them. */
export interface SearchToolsInput {
  /** What the tool should do, or exact tool names. */
  query: string;
  /** How many matches to return (1 to 25, default 5). */
  limit?: number;
  /** How much of each match to show (default `name_description`). */
  detail_level?: 'name' | 'name_description' | 'full';
  /** Output budget in tokens (default 10000). */
  max_output_tokens?: number;
}

/** code_search arguments as a model sends them. */
export interface CodeSearchInput {
  /** Literal text to find. */
  query: string;
  /** One workspace file or folder to search in. */
  path?: string;
  /** Languages or extensions to search. */
  file_types?: string[];
  /** Categories to search (default all four). */
  result_types?: Array<'definition' | 'usage' | 'text' | 'path'>;
  /** Maximum results (1 to 100, default 20). */
  max_results?: number;
  /** Output budget in tokens (default 10000). */
  max_output_tokens?: number;
}

/**
 * The arguments of each built-in tool as a model sends them (a field with a default may be left out), by tool name, for
 * adapters and callers that type tool calls. `code_search` is offered in the advanced profile only.
 */
export interface BuiltinToolInputs {
  /** Runs a command. */
  exec_command: ExecCommandInput;
  /** Writes to a running session and reads its new output. */
  write_stdin: WriteStdinInput;
  /** Applies a patch. */
  apply_patch: ApplyPatchInput;
  /** Finds deferred catalog tools. */
  search_tools: SearchToolsInput;
  /** Searches the workspace for definitions, usages, text and paths. */
  code_search: CodeSearchInput;
}

/** The name of a built-in tool. */
export type BuiltinToolName = keyof BuiltinToolInputs;
