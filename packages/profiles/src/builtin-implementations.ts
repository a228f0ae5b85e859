import type { ToolImplementation } from '@toolhost/core';
import { createApplyPatchTool } from '@toolhost/patch';
import { createCodeSearchTool } from '@toolhost/code-search';
import type { BuiltinImplementations } from './tool-runtime.js';

/** The built-in tools over a host's exec pair: the real patch engine and code search, which run over any Workspace. */
export function createBuiltinImplementations(
  exec: { execCommand: ToolImplementation; writeStdin: ToolImplementation },
  // Written out, not CodeSearchToolOptions: a consumer's type check would otherwise load code-search's declarations
  // and, through them, web-tree-sitter's (which do not compile without skipLibCheck).
  codeSearch: { index?: boolean | { cacheDir?: string | false; cacheLimits?: { maxAgeMs?: number; maxBytes?: number }; watch?: boolean } } = {},
): BuiltinImplementations {
  return {
    exec_command: exec.execCommand,
    write_stdin: exec.writeStdin,
    apply_patch: createApplyPatchTool(),
    code_search: createCodeSearchTool({ index: codeSearch.index }),
  };
}
