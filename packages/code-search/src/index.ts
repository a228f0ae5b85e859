export {
  codeSearchSchema,
  codeSearchDataSchema,
  RESULT_TYPES,
  type ResultType,
  type CodeSearchArgs,
  type CodeSearchData,
} from './code-search-schema.js';
export { createCodeSearchTool, type CodeSearchTool, type CodeSearchToolOptions } from './code-search-tool.js';
export type { CandidatePrefilter } from './candidate-prefilter.js';
export { createSymbolIndex, symbolIndexCacheFile, type IndexLookup, type SymbolIndex, type SymbolIndexOptions } from './symbol-index.js';
export type { IndexStats } from './index-store.js';
export type { IndexedFile } from './index-lookups.js';
export type { IndexLookupRequest, SymbolLookupRequest, TextLookupRequest } from './index-lookup-request.js';
export { DEFAULT_INDEX_CACHE_MAX_AGE_MS, DEFAULT_INDEX_CACHE_MAX_BYTES, type IndexCacheLimits } from './index-cache-limits.js';
export { GRAMMAR_WASM_FILES, nodeGrammarSource, createSyntaxParser, type GrammarSource, type SyntaxParser } from './grammar-loader.js';
export {
  LANGUAGES,
  resolveFileTypes,
  languageOfPath,
  type LanguageInfo,
  type GrammarId,
  type FileTypeSelection,
} from './language-table.js';
export { createLiteralMatcher, isCaseSensitive, type LiteralMatcher } from './literal-matcher.js';
export { walkWorkspace } from './workspace-walker.js';
export type { SearchHit } from './search-hit.js';
export { createRipgrepPrefilter, type RipgrepPrefilterOptions } from './ripgrep-prefilter.js';
