import type { Workspace } from '@toolhost/core';
import { RESULT_TYPES, type ResultType } from './code-search-schema.js';
import type { SyntaxParser } from './grammar-loader.js';
import type { IndexedFile } from './index-lookups.js';
import { pathHolds, type LiteralMatcher } from './literal-matcher.js';
import { nextTurn } from './next-turn.js';
import type { ParseCache } from './parse-cache.js';
import type { ScanAssist } from './scan-assist.js';
import { decideFromFacts, readFileFacts, scanFile, type FileFacts, type FileScan } from './scan-file.js';
import { createSearchClassifier } from './search-classifier.js';
import type { SearchHit } from './search-hit.js';
import { searchHints } from './search-hints.js';
import { createSearchReads, LARGE, SKIPPED, type BinaryVerdicts, type SearchReads } from './search-reads.js';
import { fileMayAdd, mayNeedParses } from './search-relevance.js';
import { createSearchTally, type SearchStats, type SearchTally } from './search-tally.js';
import { createWorkAhead } from './search-work-ahead.js';

/** How many files past the one whose turn it is a search reads ahead. */
const READ_AHEAD = 24;
/**
 * The longest a search holds the event loop between files: reads of a local folder settle without a turn of it, so a long
 * scan gives one to the other calls at this interval, and no more often, since a turn taken while V8 compiles the parser's
 * wasm in the background lets that compile hold the search up.
 */
const TURN_MS = 200;

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

/** Results plus whether more exist and hints for the model. */
export interface SearchOutcome {
  results: SearchHit[];
  truncated: boolean;
  hints: string[];
  /** Files whose content was read and scanned; how many of them were parsed (here or on the other thread), classified from a cached tree or the index, or told apart by a lexical scan alone. */
  stats: SearchStats;
}

/** Searches `files` in path order, stopping once the first requested category alone holds more than `maxResults`. */
export async function searchFiles(request: SearchRequest, environment: SearchEnvironment): Promise<SearchOutcome> {
  const { matcher, files, resultTypes, maxResults } = request;
  const tally = createSearchTally(maxResults);
  const wantSyntax = resultTypes.has('definition') || resultTypes.has('usage');
  const wantContent = wantSyntax || resultTypes.has('text');

  if (resultTypes.has('path')) {
    const pathHas = pathHolds(matcher.query, matcher.caseSensitive);
    for (const path of files) {
      if (pathHas(path)) tally.add({ result_type: 'path', path, line: 1, column: 1, snippet: path });
    }
  }

  const contentFiles = wantContent ? files.filter((path) => !request.candidates || request.candidates.has(path)) : [];
  // The prefilter says every candidate contains the query: without text wanted, a file over 2 MB needs no reading, only a
  // hint, so its size is checked first (in the read-ahead, never one file at a time).
  const sizeFirst = request.candidates !== undefined && request.candidatesExact === true && !resultTypes.has('text');
  const reads = createSearchReads(contentFiles, {
    workspace: environment.workspace,
    binaries: environment.binaries,
    text: resultTypes.has('text'),
    sizeFirst,
  });

  // Another thread takes a share of the files (the index worker while it builds), unless the index already classified some
  // or no file may need a parse (Go, Rust and Python files are mostly told apart lexically): then sharing costs more than
  // it saves.
  const assist =
    contentFiles.length > 1 && !request.known?.size && mayNeedParses(contentFiles)
      ? environment.assist?.(contentFiles, sizeFirst)
      : undefined;

  let stoppedEarly: boolean;
  try {
    stoppedEarly = await scanInOrder({ request, environment, files: contentFiles, reads, assist, tally });
  } finally {
    // Wherever the scan ended, the other thread stops taking files.
    assist?.stop();
  }
  await settleReads(reads.unsettled(), environment.inFlight);

  const { results, truncated } = tally.finish(stoppedEarly);
  const hints = searchHints({ matcher, maxResults, truncated, wantSyntax, unavailable: tally.unavailable });
  return { results, truncated, hints, stats: tally.stats };
}

/** Reads still in flight hold file handles: they settle before the caller closes (left in `inFlight`), or before this resolves. */
async function settleReads(settling: Array<Promise<unknown>>, inFlight: Set<Promise<unknown>> | undefined): Promise<void> {
  if (!inFlight) {
    await Promise.all(settling);
    return;
  }
  for (const pending of settling) {
    inFlight.add(pending);
    const done = () => inFlight.delete(pending);
    pending.then(done, done);
  }
}

/** One scan of content files in path order, and what it shares with the other thread. */
interface OrderedScan {
  readonly request: SearchRequest;
  readonly environment: SearchEnvironment;
  readonly files: readonly string[];
  readonly reads: SearchReads;
  readonly assist: ScanAssist | undefined;
  readonly tally: SearchTally;
}

/** Scans the content files in path order into the tally; true when it stopped early because the first category overflowed. */
async function scanInOrder(scan: OrderedScan): Promise<boolean> {
  const { request, environment, files, reads, assist, tally } = scan;
  const { matcher, resultTypes, maxResults } = request;
  const { workspace, parser, cache, signal } = environment;
  const { overflow } = tally;
  const firstCategory = RESULT_TYPES.find((type) => resultTypes.has(type))!;
  const mayAdd = fileMayAdd({ matcher, resultTypes, known: request.known, overflow });
  const classify = createSearchClassifier({ workspace, parser, cache, known: request.known }, matcher.query.length);

  /** Adds what one file holds, in path order: a kind already holding max_results hits only counts. */
  const apply = (path: string, found: FileScan, assisted: boolean) => {
    if (found.binary) reads.rememberBinary(path, found.length ?? 0);
    if (tally.apply(path, found, assisted)) assist?.overflowed(overflow);
  };
  /**
   * Reads the facts of a file before its turn (parsing whenever the search could still need it, as the other thread does);
   * undefined leaves the file to its turn: a known binary, a file over 2 MB counted unread, or a failed read or parse.
   */
  const readAhead = async (index: number): Promise<FileFacts | undefined> => {
    const bytes = await reads.read(index);
    if (!bytes || bytes === SKIPPED || bytes === LARGE) return undefined;
    return readFileFacts(files[index], bytes, { matcher, resultTypes, maxResults, classify, overflowed: new Set(overflow) }).catch(
      () => undefined,
    );
  };
  const ahead = assist ? createWorkAhead({ files, assist, mayAdd, read: readAhead }) : undefined;

  let prefetched = 0;
  let turnStarted = performance.now();
  for (let index = 0; index < files.length; index++) {
    if (performance.now() - turnStarted > TURN_MS) {
      await nextTurn();
      turnStarted = performance.now();
    }
    if (signal?.aborted) break;
    if (firstCategory !== 'path' && overflow.has(firstCategory)) return true;
    const path = files[index];
    // Claimed before anything else, so the other thread stops where this search has been.
    const mine = assist ? assist.claim(index) : true;
    if (!mayAdd(path)) continue;
    // Facts read before this file's turn: by this search while it waited, or by the other thread.
    let facts = ahead?.take(index);
    if (!mine) {
      // Until the other thread answers for this file, this one reads the next files no one has claimed.
      while (!assist!.answered(index) && !signal?.aborted && (await ahead!.next(index))) {
        // Each turn read one file ahead.
      }
      facts = assist!.result(index, signal);
    }
    if (facts) {
      const found = await facts;
      const decided = found
        ? await decideFromFacts(path, found, { matcher, resultTypes, room: tally.room(), overflowed: overflow }).catch(() => undefined)
        : undefined;
      if (decided) {
        // A read this search started has settled (it read ahead); one it started before the other thread claimed the file
        // stays tracked until it settles.
        if (mine) reads.release(index);
        apply(path, decided, !mine);
        continue;
      }
      // No usable facts (the worker ended, failed on the file or took too long; or the read ahead fell short): read it here.
      if (!mine && signal?.aborted) break;
    }
    // Files are read ahead, except those that could add nothing when their turn to be read ahead comes (or that the other
    // thread took).
    for (prefetched = Math.max(prefetched, index); prefetched < Math.min(files.length, index + READ_AHEAD); prefetched++) {
      if (prefetched === index || (mayAdd(files[prefetched]) && !assist?.taken(prefetched))) void reads.read(prefetched);
    }
    const bytes = await reads.read(index);
    reads.release(index);
    if (bytes === SKIPPED || !bytes) continue;
    if (bytes === LARGE) {
      tally.unavailable.large++;
      continue;
    }
    apply(path, await scanFile(path, bytes, { matcher, resultTypes, room: tally.room(), overflowed: overflow, classify }), false);
  }
  return false;
}
