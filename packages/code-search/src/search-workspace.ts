import type { Workspace } from '@toolhost/core';
import { classifyOccurrences, isWordBounded, mayBeDeclarationName, type OccurrenceKind } from './classify-occurrences.js';
import type { ResultType } from './code-search-schema.js';
import type { SyntaxParser } from './grammar-loader.js';
import { extensionOf, languageOfPath } from './language-table.js';
import { createLineIndex, type LineIndex } from './line-index.js';
import { pathHolds, type LiteralMatcher } from './literal-matcher.js';
import type { IndexedFile } from './index-store.js';
import type { ParseCache } from './parse-cache.js';
import { compareHits, type SearchHit } from './search-hit.js';
import { makeSnippet } from './snippet.js';
import { SYNTAX_SPECS } from './syntax-spec.js';
import { RESULT_TYPES } from './code-search-schema.js';

import { BINARY_PROBE_BYTES, MAX_PARSE_BYTES } from './file-limits.js';

export { BINARY_PROBE_BYTES, MAX_PARSE_BYTES };
const READ_AHEAD = 24;
const CONTENT_TYPES: readonly ResultType[] = ['definition', 'usage', 'text'];

/** One search over a list of files. */
export interface SearchRequest {
  readonly matcher: LiteralMatcher;
  /** Sorted workspace-relative file paths (already walked and filtered). */
  readonly files: readonly string[];
  readonly resultTypes: ReadonlySet<ResultType>;
  readonly maxResults: number;
  /** When given, only these files can contain the query (a prefilter such as ripgrep already ran). */
  readonly candidates?: ReadonlySet<string>;
  /** True when every candidate is known to contain the query (ripgrep), not only may (the index's filters). */
  readonly candidatesExact?: boolean;
  /** Identifier nodes spelled like the query, from the symbol index; used instead of parsing when the file's size and mtime match. */
  readonly known?: ReadonlyMap<string, IndexedFile>;
}

/** What a search needs around it. */
export interface SearchEnvironment {
  readonly workspace: Workspace;
  readonly parser: SyntaxParser;
  readonly cache: ParseCache;
  readonly signal?: AbortSignal;
  /** Files found binary (NUL in their first bytes), by size and mtime: skipped unread while both hold. */
  readonly binaries?: Map<string, { mtimeMs: number; size: number }>;
  /**
   * Where reads still in flight when the search is done (read ahead but not needed, as after an early stop) are left to
   * settle: the caller awaits them before it closes. Without it the search waits for them before answering.
   */
  readonly inFlight?: Set<Promise<unknown>>;
}

/** Results plus whether more exist and hints for the model. */
export interface SearchOutcome {
  results: SearchHit[];
  truncated: boolean;
  hints: string[];
  /** Files whose content was read and scanned, and how many of them were parsed. */
  stats: { scanned: number; parsed: number; cachedTrees: number; indexed: number };
}

interface Unavailable {
  noGrammar: Map<string, number>;
  large: number;
  failedGrammars: Set<string>;
}

function isBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, BINARY_PROBE_BYTES).indexOf(0) !== -1;
}

const decoder = new TextDecoder();
/** Read in place of a file known to be binary and unchanged. */
const SKIPPED = new Uint8Array(0);
/** Read in place of a candidate over 2 MB that can only count for the hint. */
const LARGE = new Uint8Array(0);
/** Binary verdicts kept per search tool. */
const MAX_BINARIES = 10_000;

/** Records a binary verdict once the file's mtime is old enough to vouch for the bytes just read (racy-git rule). */
function rememberBinary(workspace: Workspace, binaries: Map<string, { mtimeMs: number; size: number }>, path: string, length: number): Promise<void> {
  return workspace.lstat(path).then(
    (stat) => {
      if (!stat || stat.size !== length || stat.mtimeMs >= Date.now() - 2000) return;
      if (binaries.size >= MAX_BINARIES) binaries.clear();
      binaries.set(path, { mtimeMs: stat.mtimeMs, size: stat.size });
    },
    () => undefined,
  );
}

/** Searches `files` in path order, stopping once the first requested category alone holds more than `maxResults`. */
export async function searchFiles(request: SearchRequest, environment: SearchEnvironment): Promise<SearchOutcome> {
  const { matcher, files, resultTypes, maxResults } = request;
  const { workspace, parser, cache } = environment;
  const hits: SearchHit[] = [];
  const counts: Record<ResultType, number> = { definition: 0, usage: 0, text: 0, path: 0 };
  const stats = { scanned: 0, parsed: 0, cachedTrees: 0, indexed: 0 };
  const unavailable: Unavailable = { noGrammar: new Map(), large: 0, failedGrammars: new Set() };
  const wantSyntax = resultTypes.has('definition') || resultTypes.has('usage');
  const wantContent = wantSyntax || resultTypes.has('text');
  const firstCategory = RESULT_TYPES.find((type) => resultTypes.has(type))!;
  const pathHas = pathHolds(matcher.query, matcher.caseSensitive);
  let stoppedEarly = false;
  const overflow = new Set<ResultType>();

  /**
   * False when a file cannot add to any requested content category that has not already overflowed, nor to a hint, so it
   * need not be read: text is unknown without reading (an open text category reads every file); past that, only code files
   * can hold definitions or usages (a code language without a grammar only counts for its hint), and the index's identifier
   * nodes of a file (`known`) say which of the two it holds.
   */
  const mayAdd = (path: string) => {
    const open = CONTENT_TYPES.filter((type) => resultTypes.has(type) && !overflow.has(type));
    if (open.includes('text')) return true;
    if (open.length === 0 || !matcher.identifierLike) return false;
    const language = languageOfPath(path);
    // Without text wanted, any file may still count for the "over 2 MB" hint.
    if (!language?.grammar) return language?.codeWithoutGrammar === true || !resultTypes.has('text');
    const occurrences = request.known?.get(path)?.occurrences;
    return !occurrences || open.some((type) => occurrences.some((occurrence) => occurrence.definition === (type === 'definition')));
  };

  const add = (hit: SearchHit) => {
    hits.push(hit);
    counts[hit.result_type]++;
  };

  if (resultTypes.has('path')) {
    for (const path of files) {
      if (pathHas(path)) add({ result_type: 'path', path, line: 1, column: 1, snippet: path });
    }
  }

  const contentFiles = wantContent ? files.filter((path) => !request.candidates || request.candidates.has(path)) : [];
  const reads = new Map<number, Promise<Uint8Array | undefined>>();
  const remembering: Array<Promise<void>> = [];
  // The prefilter says every candidate contains the query: without text wanted, a file over 2 MB needs no reading, only a
  // hint, so its size is checked first (in the read-ahead, never one file at a time).
  const sizeFirst = request.candidates !== undefined && request.candidatesExact === true && !resultTypes.has('text');
  const read = (index: number) => {
    let pending = reads.get(index);
    if (!pending) {
      const path = contentFiles[index];
      const known = environment.binaries?.get(path);
      // A known binary is skipped unread unless, being large, it may still count for the "over 2 MB" hint.
      const skippable = known !== undefined && (resultTypes.has('text') || known.size <= MAX_PARSE_BYTES);
      const reading = skippable
        ? workspace.lstat(path).then((stat) => (stat && stat.mtimeMs === known.mtimeMs && stat.size === known.size ? SKIPPED : workspace.readFile(path)))
        : sizeFirst
          ? workspace.lstat(path).then((stat) => (stat && stat.size > MAX_PARSE_BYTES ? LARGE : workspace.readFile(path)))
          : workspace.readFile(path);
      pending = reading.then(
        (bytes) => bytes,
        () => undefined,
      );
      reads.set(index, pending);
    }
    return pending;
  };

  let prefetched = 0;
  for (let index = 0; index < contentFiles.length; index++) {
    if (environment.signal?.aborted) break;
    if (firstCategory !== 'path' && overflow.has(firstCategory)) {
      stoppedEarly = true;
      break;
    }
    if (!mayAdd(contentFiles[index])) continue;
    // Files are read ahead, except those that could add nothing when their turn to be read ahead comes.
    for (prefetched = Math.max(prefetched, index); prefetched < Math.min(contentFiles.length, index + READ_AHEAD); prefetched++) {
      if (prefetched === index || mayAdd(contentFiles[prefetched])) read(prefetched);
    }
    const bytes = await read(index);
    reads.delete(index);
    if (bytes === SKIPPED) continue;
    if (bytes === LARGE) {
      unavailable.large++;
      continue;
    }
    if (bytes && bytes.length > MAX_PARSE_BYTES && !resultTypes.has('text')) {
      // Text-only file and text not requested: it can only be a hint.
      if (matcher.mayContain(bytes)) unavailable.large++;
      continue;
    }
    if (!bytes) continue;
    stats.scanned++;
    const path = contentFiles[index];
    if (isBinary(bytes)) {
      if (environment.binaries) remembering.push(rememberBinary(workspace, environment.binaries, path, bytes.length));
      continue;
    }
    if (!matcher.mayContain(bytes)) continue;
    const text = decoder.decode(bytes);
    const starts = matcher.find(text);
    if (starts.length === 0) continue;
    const length = matcher.query.length;
    const open = CONTENT_TYPES.filter((type) => resultTypes.has(type) && counts[type] < maxResults);
    if (open.length === 0) {
      // Every content category is full: whatever these occurrences are, none can be shown.
      for (const type of CONTENT_TYPES) if (resultTypes.has(type)) overflow.add(type);
      continue;
    }
    let kinds: OccurrenceKind[] | undefined;
    const language = languageOfPath(path);
    // When definitions are all that can still change the answer (usages and text not wanted, or already past
    // max_results), a file whose occurrences all sit where no declaration name can is not parsed.
    const definitionsOnly = !(['usage', 'text'] as const).some((type) => resultTypes.has(type) && !overflow.has(type));
    const needsParse =
      matcher.identifierLike &&
      starts.some((start) => isWordBounded(text, start, length) && (!definitionsOnly || !language?.grammar || mayBeDeclarationName(text, start, language.grammar)));
    if (needsParse && language?.grammar) {
      if (bytes.length > MAX_PARSE_BYTES) {
        unavailable.large++;
      } else {
        const stat = await workspace.lstat(path);
        const known = request.known?.get(path);
        if (known?.occurrences && stat && stat.mtimeMs === known.mtimeMs && stat.size === known.size) {
          const byStart = new Map(known.occurrences.map((occurrence) => [occurrence.start, occurrence.definition] as const));
          kinds = starts.map((start) => {
            const definition = byStart.get(start);
            return definition === undefined ? 'text' : definition ? 'definition' : 'usage';
          });
          stats.indexed++;
        }
        let tree = kinds || !stat ? undefined : cache.get(path, stat.mtimeMs, stat.size);
        if (tree) stats.cachedTrees++;
        else if (!kinds) {
          tree = await parser.parse(language.grammar, text);
          if (tree) {
            stats.parsed++;
            if (stat) cache.set(path, stat.mtimeMs, stat.size, tree, text.length);
          } else unavailable.failedGrammars.add(language.name);
        }
        if (tree) {
          kinds = classifyOccurrences(SYNTAX_SPECS[language.grammar], tree, starts, length);
          if (!stat) tree.delete();
        }
      }
    } else if (needsParse && (language?.codeWithoutGrammar || (!language && extensionOf(path) !== ''))) {
      const name = language?.name ?? `.${extensionOf(path)}`;
      if (language?.codeWithoutGrammar) unavailable.noGrammar.set(name, (unavailable.noGrammar.get(name) ?? 0) + 1);
    }
    let lines: LineIndex | undefined;
    for (let i = 0; i < starts.length; i++) {
      const kind = kinds?.[i] ?? 'text';
      if (!resultTypes.has(kind)) continue;
      // Files come in path order, so a category already holding maxResults hits cannot show later ones: count only.
      if (counts[kind] >= maxResults) {
        overflow.add(kind);
        continue;
      }
      lines ??= createLineIndex(text);
      const { line, column, lineStart } = lines.locate(starts[i]);
      const snippet = makeSnippet(lines.lineText(lineStart), column - 1, length);
      const hit: SearchHit = { result_type: kind, path, line, column, snippet };
      if (kind !== 'text') hit.name = text.slice(starts[i], starts[i] + length);
      add(hit);
    }
  }
  // Reads still in flight hold file handles: they settle before the caller closes, or before this returns.
  const settling = [...reads.values(), ...remembering];
  const { inFlight } = environment;
  if (inFlight) {
    for (const pending of settling) {
      inFlight.add(pending);
      const done = () => inFlight.delete(pending);
      pending.then(done, done);
    }
  } else await Promise.all(settling);

  const unique = new Map<string, SearchHit>();
  for (const hit of hits) unique.set(`${hit.result_type}\u0000${hit.path}\u0000${hit.line}\u0000${hit.column}`, hit);
  const sorted = [...unique.values()].sort(compareHits);
  const truncated = stoppedEarly || overflow.size > 0 || sorted.length > maxResults;
  const results = sorted.slice(0, maxResults);
  const hints: string[] = [];
  if (truncated) {
    hints.push(
      `truncated: true — more results exist than the ${maxResults} shown; narrow path, file_types or result_types, or raise max_results (up to 100).`,
    );
  }
  if (wantSyntax) {
    if (!matcher.identifierLike) {
      hints.push(`${JSON.stringify(matcher.query)} is not an identifier, so it has no definition or usage results; its matches are text.`);
    }
    if (unavailable.noGrammar.size > 0) {
      const list = [...unavailable.noGrammar].map(([name, count]) => `${name} (${count} file${count === 1 ? '' : 's'})`).join(', ');
      hints.push(`Definitions and usages are unavailable for ${list}: no grammar for that language, so its matches are reported as text.`);
    }
    if (unavailable.large > 0) {
      hints.push(`${unavailable.large} matching file${unavailable.large === 1 ? ' is' : 's are'} over 2 MB and were searched as text only.`);
    }
    if (unavailable.failedGrammars.size > 0) {
      hints.push(`The grammar for ${[...unavailable.failedGrammars].join(', ')} could not be loaded; matches in those files are reported as text.`);
    }
  }
  return { results, truncated, hints, stats };
}
