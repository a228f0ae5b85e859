import { ErrorCode, errorResult, type ToolImplementation } from '@toolhost/core';
import { codeSearchSchema } from './code-search-schema.js';

/** Creates the code_search tool. */
export function createCodeSearchTool(): ToolImplementation {
  return {
    name: 'code_search',
    schema: codeSearchSchema,
    execute: async () => errorResult(ErrorCode.ToolFailed, 'code_search is not implemented in this build'),
  };
}
