import type { Workspace } from '@toolhost/core';
import type { ResultType } from './code-search-schema.js';
import type { SyntaxParser } from './grammar-loader.js';
import { languageOfPath } from './language-table.js';
import { hasLexicalKinds } from './lexical-kinds.js';
import { pathHolds, type LiteralMatcher } from './literal-matcher.js';
import type { IndexedFile } from './index-lookups.js';
import type { ParseCache } from './parse-cache.js';
import type { ScanAssist } from './scan-assist.js';
import { CONTENT_TYPES, decideFromFacts, readFileFacts, scanFile, type ContentType, type FileFacts, type FileScan } from './scan-file.js';
import { compareHits, type SearchHit } from './search-hit.js';
import { searchHints, type Unavailable } from './search-hints.js';
import { createSearchClassifier } from './search-classifier.js';
import { createSearchReads, LARGE, SKIPPED, type BinaryVerdicts } from './search-reads.js';
import { RESULT_TYPES } from './code-search-schema.js';

const READ_AHEAD = 24;
/** How far past a file the other thread holds this search reads ahead while it waits. */
const MAX_AHEAD = 64;
/**
 * The longest a search holds the event loop between files: reads of a local folder settle without a turn of it, so a long
 * scan gives one to the other calls at this interval, and no more often, since a turn taken while V8 compiles the parser's
 * wasm in the background lets that compile hold the search up.
 */
const TURN_MS = 200;

/** Resolves on the next turn of the event loop, once the callbacks waiting for one have run. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

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
  readonly binaries?: BinaryVerdicts;
  /**
   * Where reads still in flight when the search is done (read ahead but not needed, as after an early stop) are left to
   * settle: the caller awaits them before it closes. Without it the search waits for them before answering.
   */
  readonly inFlight?: Set<Promise<unknown>>;
  /**
   * Shares the files with another thread (the index worker while it builds): it reads the first files no one has claimed
   * while the search reads the others, and the search decides every file in path order. `sizeFirst`: a file over 2 MB counts
   * for the hint unread (every file is known to hold the query, and text is not wanted).
   */
  readonly assist?: (paths: readonly string[], sizeFirst: boolean) => ScanAssist | undefined;
}

/** False when no file may need a parse: every one has a lexical scan for its occurrences (Go, Rust, Python) or no grammar. */
function mayNeedParses(paths: readonly string[]): boolean {
  return paths.some((path) => {
    const grammar = languageOfPath(path)?.grammar;
    return grammar !== undefined && !hasLexicalKinds(grammar);
  });
}

/** Results plus whether more exist and hints for the model. */
export interface SearchOutcome {
  results: SearchHit[];
  truncated: boolean;
  hints: string[];
  /** Files whose content was read and scanned; how many of them were parsed (here or on the other thread), classified from a cached tree or the index, or told apart by a lexical scan alone. */
  stats: { scanned: number; parsed: number; cachedTrees: number; indexed: number; assisted: number; lexical: number };
}

/** Searches `files` in path order, stopping once the first requested category alone holds more than `maxResults`. */
export async function searchFiles(request: SearchRequest, environment: SearchEnvironment): Promise<SearchOutcome> {
  const { matcher, files, resultTypes, maxResults } = request;
  const { workspace, parser, cache } = environment;
  const hits: SearchHit[] = [];
  const counts: Record<ResultType, number> = { definition: 0, usage: 0, text: 0, path: 0 };
  const stats = { scanned: 0, parsed: 0, cachedTrees: 0, indexed: 0, assisted: 0, lexical: 0 };
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
  // The prefilter says every candidate contains the query: without text wanted, a file over 2 MB needs no reading, only a
  // hint, so its size is checked first (in the read-ahead, never one file at a time).
  const sizeFirst = request.candidates !== undefined && request.candidatesExact === true && !resultTypes.has('text');
  const reads = createSearchReads(contentFiles, { workspace, binaries: environment.binaries, text: resultTypes.has('text'), sizeFirst });

  // Another thread takes a share of the files (the index worker while it builds), unless the index already classified some
  // or no file may need a parse (Go, Rust and Python files are mostly told apart lexically): then sharing costs more than
  // it saves.
  const assist =
    contentFiles.length > 1 && !request.known?.size && mayNeedParses(contentFiles)
      ? environment.assist?.(contentFiles, sizeFirst)
      : undefined;
  /** Facts of files this search claimed and read before their turn, while it waited for the other thread. */
  const ahead = new Map<number, Promise<FileFacts | undefined>>();

  const classify = createSearchClassifier({ workspace, parser, cache, known: request.known }, matcher.query.length);

  /** Adds what one file holds, in path order: a kind already holding max_results hits only counts. */
  const apply = (path: string, scan: FileScan, assisted: boolean) => {
    const overflowing = overflow.size;
    if (scan.scanned) stats.scanned++;
    if (scan.binary) reads.rememberBinary(path, scan.length ?? 0);
    if (scan.large) unavailable.large++;
    if (scan.noGrammar) unavailable.noGrammar.set(scan.noGrammar, (unavailable.noGrammar.get(scan.noGrammar) ?? 0) + 1);
    if (scan.failedGrammar) unavailable.failedGrammars.add(scan.failedGrammar);
    if (scan.classifiedBy === 'parse') stats[assisted ? 'assisted' : 'parsed']++;
    else if (scan.classifiedBy === 'cachedTree') stats.cachedTrees++;
    else if (scan.classifiedBy === 'index') stats.indexed++;
    else if (scan.classifiedBy === 'lexical') stats.lexical++;
    for (const type of scan.overflow) overflow.add(type);
    for (const hit of scan.hits) {
      if (counts[hit.result_type] >= maxResults) overflow.add(hit.result_type);
      else add({ ...hit, path });
    }
    if (overflow.size > overflowing) assist?.overflowed(overflow);
  };
  /**
   * Reads the facts of a file before its turn (parsing whenever the search could still need it, as the other thread does);
   * undefined leaves the file to its turn: a known binary, a file over 2 MB counted unread, or a failed read or parse.
   */
  const readAhead = async (index: number): Promise<FileFacts | undefined> => {
    const bytes = await reads.read(index);
    if (!bytes || bytes === SKIPPED || bytes === LARGE) return undefined;
    return readFileFacts(contentFiles[index], bytes, { matcher, resultTypes, maxResults, classify, overflowed: new Set(overflow) }).catch(
      () => undefined,
    );
  };
  /** While the other thread reads the file at `waiting`, claims and reads the next file no one has; false when none is left. */
  const workAhead = async (waiting: number): Promise<boolean> => {
    for (let next = waiting + 1; next < contentFiles.length && next <= waiting + MAX_AHEAD; next++) {
      if (ahead.has(next) || assist!.taken(next) || !mayAdd(contentFiles[next]) || !assist!.claim(next)) continue;
      const facts = readAhead(next);
      ahead.set(next, facts);
      await facts;
      // A turn of the event loop, so the other thread's answers come in: reads and parses can settle without one (quick
      // synchronous reads), and this search would then read everything up to MAX_AHEAD itself.
      await nextTurn();
      return true;
    }
    return false;
  };

  const room = () => {
    const left = (type: ContentType) => Math.max(0, maxResults - counts[type]);
    return { definition: left('definition'), usage: left('usage'), text: left('text') };
  };

  let prefetched = 0;
  let turnStarted = performance.now();
  try {
    for (let index = 0; index < contentFiles.length; index++) {
      if (performance.now() - turnStarted > TURN_MS) {
        await nextTurn();
        turnStarted = performance.now();
      }
      if (environment.signal?.aborted) break;
      if (firstCategory !== 'path' && overflow.has(firstCategory)) {
        stoppedEarly = true;
        break;
      }
      const path = contentFiles[index];
      // Claimed before anything else, so the other thread stops where this search has been.
      const mine = assist ? assist.claim(index) : true;
      if (!mayAdd(path)) continue;
      // Facts read before this file's turn: by this search while it waited, or by the other thread.
      let facts: Promise<FileFacts | undefined> | undefined = ahead.get(index);
      ahead.delete(index);
      if (!mine) {
        // Until the other thread answers for this file, this one reads the next files no one has claimed.
        while (!assist!.answered(index) && !environment.signal?.aborted && (await workAhead(index))) {
          // Each turn read one file ahead.
        }
        facts = assist!.result(index, environment.signal);
      }
      if (facts) {
        const found = await facts;
        const scan = found
          ? await decideFromFacts(path, found, { matcher, resultTypes, room: room(), overflowed: overflow }).catch(() => undefined)
          : undefined;
        if (scan) {
          // A read this search started has settled (it read ahead); one it started before the other thread claimed the file
          // stays tracked until it settles.
          if (mine) reads.release(index);
          apply(path, scan, !mine);
          continue;
        }
        // No usable facts (the worker ended, failed on the file or took too long; or the read ahead fell short): read it here.
        if (!mine && environment.signal?.aborted) break;
      }
      // Files are read ahead, except those that could add nothing when their turn to be read ahead comes (or that the other
      // thread took).
      for (prefetched = Math.max(prefetched, index); prefetched < Math.min(contentFiles.length, index + READ_AHEAD); prefetched++) {
        if (prefetched === index || (mayAdd(contentFiles[prefetched]) && !assist?.taken(prefetched))) void reads.read(prefetched);
      }
      const bytes = await reads.read(index);
      reads.release(index);
      if (bytes === SKIPPED || !bytes) continue;
      if (bytes === LARGE) {
        unavailable.large++;
        continue;
      }
      apply(path, await scanFile(path, bytes, { matcher, resultTypes, room: room(), overflowed: overflow, classify }), false);
    }
  } finally {
    // Wherever the loop ended, the other thread stops taking files.
    assist?.stop();
  }
  // Reads still in flight hold file handles: they settle before the caller closes, or before this returns.
  const settling = reads.unsettled();
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
  const hints = searchHints({ matcher, maxResults, truncated, wantSyntax, unavailable });
  return { results, truncated, hints, stats };
}
