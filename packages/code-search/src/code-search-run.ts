import { okResult, type ToolContext, type ToolResult, type Workspace } from '@toolhost/core';
import type { CandidatePrefilter } from './candidate-prefilter.js';
import { RESULT_TYPES, type CodeSearchArgs, type ResultType } from './code-search-schema.js';
import { definitionCandidates } from './definition-candidates.js';
import { formatResults } from './format-results.js';
import type { SyntaxParser } from './grammar-loader.js';
import type { IndexLookupRequest } from './index-lookup-request.js';
import type { IndexedFile } from './index-lookups.js';
import { extensionOf, languageOfPath } from './language-table.js';
import { createLiteralMatcher, type LiteralMatcher } from './literal-matcher.js';
import type { ParseCache } from './parse-cache.js';
import { snapshotWorkspace, type ResultCache } from './result-cache.js';
import type { RipgrepSearches } from './ripgrep-prefilter.js';
import type { BinaryVerdicts } from './search-reads.js';
import { resolveSearchScope } from './search-scope.js';
import { searchFiles, type SearchOutcome } from './search-workspace.js';
import type { IndexLookup, ScanSupport, SymbolIndex } from './symbol-index.js';
import { comparePaths, walkWorkspace } from './workspace-walker.js';

/** What one code_search call draws on from its tool: kept across calls, and the index the tool started. */
export interface CodeSearchSetup {
  readonly parser: SyntaxParser;
  readonly cache: ParseCache;
  /** Whole results of repeated calls; none: never reused. */
  readonly results: ResultCache | undefined;
  readonly ripgrep: RipgrepSearches | undefined;
  readonly prefilter: CandidatePrefilter | undefined;
  /** Reads a finished search no longer needs, awaited when the tool closes. */
  readonly inFlight: Set<Promise<unknown>>;
  /** True when the index worker may take a share of a scan (it loads the grammars of the installed packages only). */
  readonly assistable: boolean;
  /** The binary verdicts kept for a workspace root. */
  binariesOf(root: string): BinaryVerdicts;
  /** Starts the background index of `workspace` when the tool indexes it and has not started it. */
  prepare(workspace: Workspace): void;
  /** The index of the workspace at `root`, once started. */
  indexOf(root: string): (SymbolIndex & ScanSupport) | undefined;
}

function respond(query: string, outcome: SearchOutcome): ToolResult {
  const output = formatResults(query, outcome.results, outcome.truncated, outcome.hints);
  return okResult(output, { results: outcome.results, truncated: outcome.truncated, hints: outcome.hints });
}

/** Asks the index (checked against the disk first) for the files that can hold a result; undefined while it is not ready. */
function lookUpIndex(
  symbols: SymbolIndex,
  request: IndexLookupRequest,
  resultTypes: ReadonlySet<ResultType>,
  syntaxQuery: boolean,
  identifierQuery: boolean,
): Promise<IndexLookup | undefined> {
  if (syntaxQuery && !resultTypes.has('text')) {
    // Definitions and usages only: the index names every file that can hold one. Searching one kind alone, parsed files
    // holding only the other kind cannot add a result and are not read.
    const only = resultTypes.has('usage') ? (resultTypes.has('definition') ? undefined : 'usage') : 'definition';
    return symbols.lookup({ ...request, only });
  }
  // Text wanted: the trigram filters name the files that may hold it, and the index classifies the occurrences of those it
  // holds unchanged (an occurrence that is no identifier is text); the rest are parsed.
  return symbols.textLookup({ ...request, identifiers: identifierQuery });
}

/** One code_search call once its scope is known and the index (when there is one) was asked. */
interface SearchPlan {
  readonly args: CodeSearchArgs;
  readonly context: ToolContext;
  readonly setup: CodeSearchSetup;
  readonly matcher: LiteralMatcher;
  readonly start: string;
  readonly extensions: ReadonlySet<string> | undefined;
  readonly resultTypes: ReadonlySet<ResultType>;
  readonly symbols: (SymbolIndex & ScanSupport) | undefined;
  /** The index's answer; none while it is not ready. */
  readonly indexed: IndexLookup | undefined;
  /** Identifier nodes spelled like the query that the index holds, by path. */
  readonly known: Map<string, IndexedFile> | undefined;
  /** Key of the result cache, when this call's result is checked against it and stored in it. */
  readonly cacheKey: string | undefined;
  readonly identifierQuery: boolean;
  readonly definitionsOnly: boolean;
  readonly wantContent: boolean;
  readonly wantPaths: boolean;
}

/** Runs one code_search call: literal scan, tree-sitter classification, the index's answer when it has one. */
export async function runCodeSearch(args: CodeSearchArgs, context: ToolContext, setup: CodeSearchSetup): Promise<ToolResult> {
  const { results } = setup;
  const workspace = context.workspace;
  const scope = await resolveSearchScope(workspace, args);
  if (!scope.ok) return scope.result;
  const { start, extensions } = scope;
  const resultTypes = new Set<ResultType>(args.result_types ?? RESULT_TYPES);
  const matcher = createLiteralMatcher(args.query);

  const cacheKey = JSON.stringify([args.query, start, [...(extensions ?? [])].sort(), [...resultTypes].sort(), args.max_results]);
  // Path-only searches just walk, which is cheaper than validating a cached result; a snapshot is taken from the second
  // identical call on, so one-off searches never pay for it.
  const wantContent = resultTypes.has('definition') || resultTypes.has('usage') || resultTypes.has('text');
  const useResultCache = results !== undefined && workspace.onDisk && wantContent && results.markSeen(cacheKey);
  if (useResultCache) {
    const cached = await results.lookup(cacheKey, workspace, start, context.signal);
    if (cached) return respond(args.query, cached);
  }
  setup.prepare(workspace);
  const symbols = setup.indexOf(workspace.root);
  const wantSyntax = resultTypes.has('definition') || resultTypes.has('usage');
  const identifierQuery = matcher.identifierLike && !args.query.includes('$');
  const syntaxQuery = wantSyntax && identifierQuery;
  const wantPaths = resultTypes.has('path');
  const definitionsOnly = syntaxQuery && !resultTypes.has('usage') && !resultTypes.has('text');
  let known: Map<string, IndexedFile> | undefined;
  let indexed: IndexLookup | undefined;
  if (symbols && wantContent) {
    const request: IndexLookupRequest = { query: args.query, caseSensitive: matcher.caseSensitive, start, extensions, paths: wantPaths };
    indexed = await lookUpIndex(symbols, request, resultTypes, syntaxQuery, identifierQuery);
    if (indexed) known = new Map(indexed.files.filter((file) => file.occurrences).map((file) => [file.path, file]));
  }
  // A scan while the index builds: the build waits for it (the two would share the cores), and the worker takes a share of
  // the files to parse.
  const resumeBuild = symbols && !indexed && wantContent ? symbols.pauseBuild() : undefined;
  try {
    return await scanWorkspace({
      args,
      context,
      setup,
      matcher,
      start,
      extensions,
      resultTypes,
      symbols,
      indexed,
      known,
      cacheKey: useResultCache ? cacheKey : undefined,
      identifierQuery,
      definitionsOnly,
      wantContent,
      wantPaths,
    });
  } finally {
    resumeBuild?.();
  }
}

/** Lists the files to search (from the prefilter or the index, else by walking) and searches them. */
async function scanWorkspace(plan: SearchPlan): Promise<ToolResult> {
  const { args, context, setup, matcher, start, extensions, resultTypes, symbols, indexed, cacheKey } = plan;
  const { workspace, signal } = context;
  const { ripgrep, prefilter, results } = setup;
  const startedAtMs = Date.now();
  const snapshot = cacheKey !== undefined ? snapshotWorkspace(workspace, start, signal).catch(() => undefined) : undefined;
  const request = { workspace, query: args.query, caseSensitive: matcher.caseSensitive, start, extensions, signal };
  const prefiltered = indexed
    ? Promise.resolve(new Set(indexed.files.map((file) => file.path)))
    : plan.definitionsOnly && ripgrep
      ? definitionCandidates(ripgrep, request, matcher, workspace)
      : plan.wantContent && prefilter
        ? prefilter(request)
        : Promise.resolve(undefined);
  // Without path results, a prefilter's candidate list replaces the walk (ripgrep applies the same ignore rules); with
  // them, the index names the matching paths, else the folder is walked.
  const pathsFromIndex = indexed?.paths;
  const walking = plan.wantPaths && !pathsFromIndex ? walkWorkspace(workspace, start, signal) : undefined;
  const candidates = await prefiltered;
  let known = plan.known;
  if (symbols && plan.identifierQuery && candidates && !known) {
    // ripgrep named the files; the index classifies those it holds unchanged, the rest are parsed.
    const parseable = [...candidates].filter((path) => languageOfPath(path)?.grammar !== undefined);
    known = await symbols.occurrences({ query: args.query, caseSensitive: matcher.caseSensitive, paths: parseable });
  }
  const listed = walking
    ? await walking
    : candidates
      ? [...new Set([...candidates, ...(pathsFromIndex ?? [])])].sort(comparePaths)
      : await walkWorkspace(workspace, start, signal);
  const files = extensions ? listed.filter((path) => extensions.has(extensionOf(path))) : listed;
  const outcome = await searchFiles(
    { matcher, files, resultTypes, maxResults: args.max_results, candidates, candidatesExact: !indexed, known },
    {
      workspace,
      parser: setup.parser,
      cache: setup.cache,
      signal,
      binaries: workspace.onDisk ? setup.binariesOf(workspace.root) : undefined,
      inFlight: setup.inFlight,
      // Only while the index builds, and only with the grammars the worker loads (its own source: the installed packages).
      assist:
        symbols && !indexed && setup.assistable
          ? (paths, sizeFirst) => symbols.assist({ query: args.query, paths, resultTypes, maxResults: args.max_results, sizeFirst })
          : undefined,
    },
  );
  const taken = snapshot ? await snapshot : undefined;
  if (taken && results && cacheKey !== undefined && !signal.aborted) results.store(cacheKey, taken, outcome, startedAtMs);
  return respond(args.query, outcome);
}
