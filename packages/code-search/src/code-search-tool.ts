import { okResult, type ToolContext, type ToolImplementation, type ToolResult, type Workspace } from '@toolhost/core';
import { codeSearchSchema, RESULT_TYPES, type CodeSearchArgs, type ResultType } from './code-search-schema.js';
import { formatResults } from './format-results.js';
import { createSyntaxParser, nodeGrammarSource, warmSyntaxRuntime, type GrammarSource } from './grammar-loader.js';
import { extensionOf, languageOfPath } from './language-table.js';
import { createLiteralMatcher } from './literal-matcher.js';
import { createParseCache, DEFAULT_CACHE_SOURCE_CHARS } from './parse-cache.js';
import { createResultCache, snapshotWorkspace } from './result-cache.js';
import type { CandidatePrefilter } from './candidate-prefilter.js';
import { createRipgrepSearches, type RipgrepSearches } from './ripgrep-prefilter.js';
import { definitionCandidates } from './definition-candidates.js';
import { searchFiles, type SearchOutcome } from './search-workspace.js';
import { comparePaths, walkWorkspace } from './workspace-walker.js';
import type { IndexedFile } from './index-lookups.js';
import type { IndexLookupRequest } from './index-lookup-request.js';
import { resolveSearchScope } from './search-scope.js';
import { startSymbolIndex, type IndexLookup, type ScanSupport, type SymbolIndex, type SymbolIndexOptions } from './symbol-index.js';

/** Options of {@link createCodeSearchTool}. */
export interface CodeSearchToolOptions {
  /** Where grammar wasm comes from; default: the installed npm packages. */
  grammarSource?: GrammarSource;
  /** Parsed source characters kept in the tree cache (default 8 Mi, about 120 MB of wasm memory). */
  cacheSourceChars?: number;
  /**
   * Content prefilter: `'ripgrep'` (default) runs `rg -l -F` from `@vscode/ripgrep` on disk workspaces and falls back to the
   * pure-JS scan when rg is absent or the workspace is in memory; `'scan'` always uses the pure-JS scan; or a custom function.
   */
  prefilter?: 'ripgrep' | 'scan' | CandidatePrefilter;
  /**
   * Reuse a whole earlier result of a repeated call on a disk workspace when every file under the searched folder still has
   * the same path, mtime and size (checked by walking and stating them, which is cheaper than the pure-JS scan but not
   * than ripgrep). Default: on with the `'scan'` prefilter, off with ripgrep.
   */
  resultCache?: boolean;
  /**
   * The background symbol index of a disk workspace (definitions and identifier occurrences per file, on a worker thread,
   * persisted in `cacheDir`): definition and usage searches answer from it once it is built, and every search before that
   * scans as without it. Default: on; `false`: never index. In-memory workspaces are always scanned.
   */
  index?: boolean | SymbolIndexOptions;
}

/** The code_search tool: a ToolImplementation that can start indexing a workspace before the first call. */
export interface CodeSearchTool extends ToolImplementation {
  /** Starts the background index of `workspace` (a local disk workspace; others are ignored) unless indexing is off. */
  prepare(workspace: Workspace): void;
  /** The index of the prepared workspace, once started. */
  readonly symbolIndex: SymbolIndex | undefined;
  /** Stops the index worker and frees parsed trees. */
  close(): Promise<void>;
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

/** Creates the code_search tool: literal scan, tree-sitter classification, parse cache shared across calls. */
export function createCodeSearchTool(options: CodeSearchToolOptions = {}): CodeSearchTool {
  const parser = createSyntaxParser(options.grammarSource ?? nodeGrammarSource);
  const cache = createParseCache(options.cacheSourceChars ?? DEFAULT_CACHE_SOURCE_CHARS);
  const binariesByRoot = new Map<string, Map<string, { mtimeMs: number; size: number }>>();
  /** Reads a finished search no longer needs, awaited by close() so no file handle outlives the tool. */
  const inFlight = new Set<Promise<unknown>>();
  const binariesOf = (root: string) => {
    let binaries = binariesByRoot.get(root);
    if (!binaries) binariesByRoot.set(root, (binaries = new Map<string, { mtimeMs: number; size: number }>()));
    return binaries;
  };
  const choice = options.prefilter ?? 'ripgrep';
  const results = (options.resultCache ?? choice === 'scan') ? createResultCache() : undefined;
  const ripgrep: RipgrepSearches | undefined = choice === 'ripgrep' ? createRipgrepSearches() : undefined;
  const prefilter: CandidatePrefilter | undefined = choice === 'scan' ? undefined : (ripgrep?.prefilter ?? (choice as CandidatePrefilter));
  const indexOptions = options.index === false ? undefined : options.index === true || options.index === undefined ? {} : options.index;
  let index: { root: string; symbols: SymbolIndex & ScanSupport } | undefined;
  let closed = false;
  /** Searches running now. */
  const running = new Set<Promise<unknown>>();
  /**
   * Resolves on the next turn of the event loop once the searches running then have ended (searches that start later never
   * delay it): a worker that starts while a search runs (a search asked as the tool starts) takes the cores that search
   * needs, and starting it costs more than it helps.
   */
  const searchesDone = () =>
    new Promise<void>((resolve) => setImmediate(() => void Promise.allSettled([...running]).then(() => resolve())));
  const prepare = (workspace: Workspace) => {
    // Only a folder of this machine is indexed: a remote workspace (a container, an SSH host) searches where its files
    // are, and its root names no local folder.
    if (index || closed || !indexOptions || !workspace.onDisk || workspace.findFilesContaining) return;
    const idle = searchesDone();
    index = { root: workspace.root, symbols: startSymbolIndex(workspace.root, indexOptions, idle) };
    // The parser runtime starts once no search runs, so a later search that parses does not wait for it. A search asked as
    // the tool starts would share the cores with that start, though most Go, Rust and Python files it reads need no parse;
    // one that does parse starts the runtime itself.
    void idle.then(warmSyntaxRuntime);
  };
  return {
    name: 'code_search',
    prepare,
    get symbolIndex() {
      return index?.symbols;
    },
    schema: codeSearchSchema,
    async execute(rawArgs, context) {
      const searching = search(rawArgs as CodeSearchArgs, context);
      running.add(searching);
      try {
        return await searching;
      } finally {
        running.delete(searching);
      }
    },
    async close() {
      closed = true;
      await Promise.allSettled([...inFlight]);
      await index?.symbols.close();
      results?.clear();
      binariesByRoot.clear();
      cache.clear();
      parser.dispose();
    },
  };

  async function search(args: CodeSearchArgs, context: ToolContext): Promise<ToolResult> {
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
    prepare(workspace);
    const symbols = index && index.root === workspace.root ? index.symbols : undefined;
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
      return await scan();
    } finally {
      resumeBuild?.();
    }

    async function scan(): Promise<ToolResult> {
      const startedAtMs = Date.now();
      const snapshot = useResultCache ? snapshotWorkspace(workspace, start, context.signal).catch(() => undefined) : undefined;
      const request = { workspace, query: args.query, caseSensitive: matcher.caseSensitive, start, extensions, signal: context.signal };
      const prefiltered = indexed
        ? Promise.resolve(new Set(indexed.files.map((file) => file.path)))
        : definitionsOnly && ripgrep
          ? definitionCandidates(ripgrep, request, matcher, workspace)
          : wantContent && prefilter
            ? prefilter(request)
            : Promise.resolve(undefined);
      // Without path results, a prefilter's candidate list replaces the walk (ripgrep applies the same ignore rules); with
      // them, the index names the matching paths, else the folder is walked.
      const pathsFromIndex = indexed?.paths;
      const walking = wantPaths && !pathsFromIndex ? walkWorkspace(workspace, start, context.signal) : undefined;
      const candidates = await prefiltered;
      if (symbols && identifierQuery && candidates && !known) {
        // ripgrep named the files; the index classifies those it holds unchanged, the rest are parsed.
        const parseable = [...candidates].filter((path) => languageOfPath(path)?.grammar !== undefined);
        known = await symbols.occurrences({ query: args.query, caseSensitive: matcher.caseSensitive, paths: parseable });
      }
      const listed = walking
        ? await walking
        : candidates
          ? [...new Set([...candidates, ...(pathsFromIndex ?? [])])].sort(comparePaths)
          : await walkWorkspace(workspace, start, context.signal);
      const files = extensions ? listed.filter((path) => extensions.has(extensionOf(path))) : listed;
      const outcome = await searchFiles(
        { matcher, files, resultTypes, maxResults: args.max_results, candidates, candidatesExact: !indexed, known },
        {
          workspace,
          parser,
          cache,
          signal: context.signal,
          binaries: workspace.onDisk ? binariesOf(workspace.root) : undefined,
          inFlight,
          // Only while the index builds, and only with the grammars the worker loads (its own source: the installed packages).
          assist:
            symbols && !indexed && !options.grammarSource
              ? (paths, sizeFirst) => symbols.assist({ query: args.query, paths, resultTypes, maxResults: args.max_results, sizeFirst })
              : undefined,
        },
      );
      const taken = snapshot ? await snapshot : undefined;
      if (taken && results && !context.signal.aborted) results.store(cacheKey, taken, outcome, startedAtMs);
      return respond(args.query, outcome);
    }
  }
}
