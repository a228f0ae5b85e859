export { codeSearchSchema, RESULT_TYPES, type ResultType, type CodeSearchArgs } from './code-search-schema.js';
export { createCodeSearchTool, type CodeSearchToolOptions, type CandidatePrefilter } from './code-search-tool.js';
export { GRAMMAR_WASM_FILES, nodeGrammarSource, createSyntaxParser, type GrammarSource, type SyntaxParser } from './grammar-loader.js';
export { LANGUAGES, resolveFileTypes, languageOfPath, type LanguageInfo, type GrammarId, type FileTypeSelection } from './language-table.js';
export { createLiteralMatcher, isCaseSensitive, type LiteralMatcher } from './literal-matcher.js';
export { walkWorkspace } from './workspace-walker.js';
export type { SearchHit } from './search-hit.js';
export { createRipgrepPrefilter, type RipgrepPrefilterOptions } from './ripgrep-prefilter.js';
