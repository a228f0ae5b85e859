import type { BuiltinToolInputs } from '@toolhost/runtime';

// Each built-in tool's arguments are read from its spec's schema (@toolhost/runtime's BUILTIN_TOOL_SPECS), so a new
// field of a schema shows here with no second list; builtin-tool-inputs.test.ts checks them against the schemas.

/** exec_command arguments as a model sends them. */
export type ExecCommandInput = BuiltinToolInputs['exec_command'];

/** write_stdin arguments as a model sends them. */
export type WriteStdinInput = BuiltinToolInputs['write_stdin'];

/** apply_patch arguments as a model sends them (the function form; the freeform form is the patch text itself). */
export type ApplyPatchInput = BuiltinToolInputs['apply_patch'];

/** search_tools arguments as a model sends them. */
export type SearchToolsInput = BuiltinToolInputs['search_tools'];

/** code_search arguments as a model sends them (offered in the advanced profile only). */
export type CodeSearchInput = BuiltinToolInputs['code_search'];
