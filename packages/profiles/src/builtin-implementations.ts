import type { ToolImplementation } from '@toolhost/core';
import { createApplyPatchTool } from '@toolhost/patch';
import { createCodeSearchTool, type CodeSearchToolOptions } from '@toolhost/code-search';
import type { BuiltinImplementations } from './tool-runtime.js';

/** The built-in tools over a host's exec pair: the real patch engine and code search, which run over any Workspace. */
export function createBuiltinImplementations(
  exec: { execCommand: ToolImplementation; writeStdin: ToolImplementation },
  codeSearch: Pick<CodeSearchToolOptions, 'index'> = {},
): BuiltinImplementations {
  return {
    exec_command: exec.execCommand,
    write_stdin: exec.writeStdin,
    apply_patch: createApplyPatchTool(),
    code_search: createCodeSearchTool({ index: codeSearch.index }),
  };
}
