import type { ResultType } from './code-search-schema.js';
import type { IndexedFile } from './index-lookups.js';
import { languageOfPath } from './language-table.js';
import { hasLexicalKinds } from './lexical-kinds.js';
import type { LiteralMatcher } from './literal-matcher.js';
import { CONTENT_TYPES } from './scan-file.js';

/** False when no file may need a parse: every one has a lexical scan for its occurrences (Go, Rust, Python) or no grammar. */
export function mayNeedParses(paths: readonly string[]): boolean {
  return paths.some((path) => {
    const grammar = languageOfPath(path)?.grammar;
    return grammar !== undefined && !hasLexicalKinds(grammar);
  });
}

/** What decides whether a file can still add to a search. */
export interface RelevanceFacts {
  readonly matcher: LiteralMatcher;
  readonly resultTypes: ReadonlySet<ResultType>;
  /** Identifier nodes spelled like the query, from the symbol index, by path. */
  readonly known?: ReadonlyMap<string, IndexedFile>;
  /** Categories already full: the live set of the search, read at each call. */
  readonly overflow: ReadonlySet<ResultType>;
}

/**
 * Returns a test that is false when a file cannot add to any requested content category that has not already overflowed,
 * nor to a hint, so it need not be read: text is unknown without reading (an open text category reads every file); past
 * that, only code files can hold definitions or usages (a code language without a grammar only counts for its hint), and
 * the index's identifier nodes of a file (`known`) say which of the two it holds.
 */
export function fileMayAdd(facts: RelevanceFacts): (path: string) => boolean {
  const { matcher, resultTypes, known, overflow } = facts;
  return (path) => {
    const open = CONTENT_TYPES.filter((type) => resultTypes.has(type) && !overflow.has(type));
    if (open.includes('text')) return true;
    if (open.length === 0 || !matcher.identifierLike) return false;
    const language = languageOfPath(path);
    // Without text wanted, any file may still count for the "over 2 MB" hint.
    if (!language?.grammar) return language?.codeWithoutGrammar === true || !resultTypes.has('text');
    const occurrences = known?.get(path)?.occurrences;
    return !occurrences || open.some((type) => occurrences.some((occurrence) => occurrence.definition === (type === 'definition')));
  };
}
