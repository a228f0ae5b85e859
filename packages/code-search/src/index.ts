export { codeSearchSchema, RESULT_TYPES, type ResultType, type CodeSearchArgs } from './code-search-schema.js';
export { createCodeSearchTool } from './code-search-tool.js';
