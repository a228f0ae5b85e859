/** What an index lookup asks for: the files under `start` that can hold `query`, and with `paths` the files whose path holds it. */
export interface IndexLookupRequest {
  /** The literal searched for. */
  query: string;
  /** True when only the query's own case matches (smart case: true when the query has an upper-case letter). */
  caseSensitive: boolean;
  /** Workspace-relative folder or file the search is limited to; '' for the whole workspace. */
  start: string;
  /** Lower-case extensions (without the dot) the search is limited to, when `file_types` was given. */
  extensions?: ReadonlySet<string>;
  /** Also name the files whose path holds the query. */
  paths?: boolean;
}

/** A lookup of the files that can hold a definition or usage of the query. */
export interface SymbolLookupRequest extends IndexLookupRequest {
  /** Parsed files count only when an occurrence is of this kind (a search for definitions, or usages, alone). */
  only?: 'definition' | 'usage';
}

/** A lookup of the files that may contain the query as text. */
export interface TextLookupRequest extends IndexLookupRequest {
  /** Also the identifier nodes spelled like the query, in parsed files old enough to be trusted. */
  identifiers: boolean;
}
