import type { ResultType } from './code-search-schema.js';

/** One code_search result. */
export interface SearchHit {
  result_type: ResultType;
  /** Workspace-relative path. */
  path: string;
  /** 1-based line. */
  line: number;
  /** 1-based column in UTF-16 code units. */
  column: number;
  /** The identifier, for definitions and usages. */
  name?: string;
  /** The line, whitespace collapsed, at most 240 characters. */
  snippet: string;
}

/** Category order of the output. */
export const CATEGORY_ORDER: Readonly<Record<ResultType, number>> = { definition: 0, usage: 1, text: 2, path: 3 };

/** Orders hits by category, then path, line and column. */
export function compareHits(a: SearchHit, b: SearchHit): number {
  return (
    CATEGORY_ORDER[a.result_type] - CATEGORY_ORDER[b.result_type] ||
    (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) ||
    a.line - b.line ||
    a.column - b.column
  );
}
