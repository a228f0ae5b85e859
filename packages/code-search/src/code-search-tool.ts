import type { ToolImplementation, Workspace } from '@toolhost/core';
import type { CandidatePrefilter } from './candidate-prefilter.js';
import { runCodeSearch, type CodeSearchSetup } from './code-search-run.js';
import { codeSearchSchema, type CodeSearchArgs } from './code-search-schema.js';
import { createSyntaxParser, nodeGrammarSource, warmSyntaxRuntime, type GrammarSource } from './grammar-loader.js';
import { createParseCache, DEFAULT_CACHE_SOURCE_CHARS } from './parse-cache.js';
import { createResultCache } from './result-cache.js';
import { createRipgrepSearches, type RipgrepSearches } from './ripgrep-prefilter.js';
import type { BinaryVerdicts } from './search-reads.js';
import { startSymbolIndex, type ScanSupport, type SymbolIndex, type SymbolIndexOptions } from './symbol-index.js';

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

/** Creates the code_search tool: literal scan, tree-sitter classification, parse cache shared across calls. */
export function createCodeSearchTool(options: CodeSearchToolOptions = {}): CodeSearchTool {
  const parser = createSyntaxParser(options.grammarSource ?? nodeGrammarSource);
  const cache = createParseCache(options.cacheSourceChars ?? DEFAULT_CACHE_SOURCE_CHARS);
  const binariesByRoot = new Map<string, Map<string, { mtimeMs: number; size: number }>>();
  /** Reads a finished search no longer needs, awaited by close() so no file handle outlives the tool. */
  const inFlight = new Set<Promise<unknown>>();
  const binariesOf = (root: string): BinaryVerdicts => {
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
  const setup: CodeSearchSetup = {
    parser,
    cache,
    results,
    ripgrep,
    prefilter,
    inFlight,
    // The worker loads the grammars of the installed packages only.
    assistable: !options.grammarSource,
    binariesOf,
    prepare,
    indexOf: (root) => (index && index.root === root ? index.symbols : undefined),
  };
  return {
    name: 'code_search',
    prepare,
    get symbolIndex() {
      return index?.symbols;
    },
    schema: codeSearchSchema,
    async execute(rawArgs, context) {
      const searching = runCodeSearch(rawArgs as CodeSearchArgs, context, setup);
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
}
