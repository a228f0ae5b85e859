import { mayBeDeclarationName, occurrencesNeedParse, type OccurrenceKind } from './classify-occurrences.js';
import type { ResultType } from './code-search-schema.js';
import { isBinary, MAX_PARSE_BYTES } from './file-limits.js';
import { languageOfPath, type GrammarId } from './language-table.js';
import { createLineIndex, type LineIndex } from './line-index.js';
import { hasLexicalKinds, lexicalKinds } from './lexical-kinds.js';
import type { LiteralMatcher } from './literal-matcher.js';
import type { SearchHit } from './search-hit.js';
import { makeSnippet } from './snippet.js';

/** The kinds of content result. */
export type ContentType = Exclude<ResultType, 'path'>;
export const CONTENT_TYPES: readonly ContentType[] = ['definition', 'usage', 'text'];

/** Where one occurrence is, as a result shows it. */
type Located = Omit<SearchHit, 'path' | 'result_type'>;

/**
 * What one file's bytes say about the query, whatever the search already holds: read on either thread, then turned into
 * results by {@link decideFile} in path order. Only the occurrences a search could show are located.
 */
export interface FileFacts {
  /** Its content was read and scanned. */
  scanned: boolean;
  /** NUL in its first bytes: skipped. */
  binary?: boolean;
  /** Its size in bytes, when binary (to remember the verdict). */
  length?: number;
  /** Over 2 MB and text not wanted: it only counts for the hint, when it may hold the query. */
  largeOnly?: boolean;
  /** UTF-16 starts of the query's occurrences; empty when it holds none. */
  starts: number[];
  /** Their kinds as a lexical scan tells them (Go, Rust, Python), undefined where only a parse can: these win over a parse's. */
  lexical?: Array<OccurrenceKind | undefined>;
  /** Whether telling them apart needs a parse: with every kind still open, and when only definitions can change the answer. */
  needsParse: { all: boolean; definitionsOnly: boolean };
  /** Over 2 MB: never parsed. */
  oversize: boolean;
  /** The kinds of the occurrences, when the file was parsed ahead (on the other thread); `failed`: the grammar did not load. */
  parsed?: { kinds?: OccurrenceKind[]; failed?: boolean };
  /** Located occurrences by position in `starts` (ahead of time: those a search could show; else located on demand). */
  located?: Array<[number, Located]>;
}

/** What one file adds to a search, given what the search holds when the file's turn comes. */
export interface FileScan {
  scanned: boolean;
  binary?: boolean;
  length?: number;
  /** It counts once for the "over 2 MB, searched as text only" hint. */
  large?: boolean;
  /** Its language has no grammar: counts for that hint. */
  noGrammar?: string;
  /** Its grammar could not be loaded. */
  failedGrammar?: string;
  /** How its occurrences were told apart, when they had to be: `lexical` without a parse. */
  classifiedBy?: 'parse' | 'cachedTree' | 'index' | 'lexical';
  /** Its results in text order, at most `room` of each kind. */
  hits: Array<Omit<SearchHit, 'path'>>;
  /** Kinds that had more occurrences here than `room`. */
  overflow: ContentType[];
}

/** Tells the occurrences of one file apart; undefined kinds mean the grammar could not be loaded. */
export type ClassifyFile = (
  path: string,
  grammar: GrammarId,
  text: string,
  starts: readonly number[],
) => Promise<{ kinds?: OccurrenceKind[]; classifiedBy?: FileScan['classifiedBy'] }>;

/** What deciding a file needs to know of the search. */
export interface FileScanContext {
  readonly matcher: LiteralMatcher;
  readonly resultTypes: ReadonlySet<ResultType>;
  /** Per kind, how many more results can be shown (a kind with none left is only counted). */
  readonly room: Readonly<Record<ContentType, number>>;
  /** Kinds already past max_results: when only definitions can still change the answer, fewer files are parsed. */
  readonly overflowed: ReadonlySet<ResultType>;
}

const decoder = new TextDecoder();

/** The facts of a file not read (or gone): it adds nothing. */
export function unreadFacts(): FileFacts {
  return { scanned: false, starts: [], needsParse: { all: false, definitionsOnly: false }, oversize: false };
}

/** Reads the facts of one file's bytes; `text` is the decoded content when there are occurrences. */
function readFacts(
  path: string,
  bytes: Uint8Array,
  matcher: LiteralMatcher,
  resultTypes: ReadonlySet<ResultType>,
): { facts: FileFacts; text?: string } {
  const facts: FileFacts = { ...unreadFacts(), oversize: bytes.length > MAX_PARSE_BYTES };
  if (facts.oversize && !resultTypes.has('text')) {
    // Text-only file and text not requested: it can only be a hint.
    facts.largeOnly = matcher.mayContain(bytes);
    return { facts };
  }
  facts.scanned = true;
  if (isBinary(bytes)) {
    facts.binary = true;
    facts.length = bytes.length;
    return { facts };
  }
  if (!matcher.mayContain(bytes)) return { facts };
  const text = decoder.decode(bytes);
  facts.starts = matcher.find(text);
  if (facts.starts.length === 0 || !matcher.identifierLike) return { facts, text };
  const grammar = languageOfPath(path)?.grammar;
  const length = matcher.query.length;
  if (hasLexicalKinds(grammar) && !facts.oversize) {
    // Where the lexical scan is certain, no parse is needed; with definitions alone, only where a declaration name may stand.
    const lexical = lexicalKinds(text, facts.starts, length, grammar!);
    facts.lexical = lexical;
    facts.needsParse = {
      all: lexical.includes(undefined),
      definitionsOnly: facts.starts.some((start, at) => lexical[at] === undefined && mayBeDeclarationName(text, start, length, grammar!)),
    };
    return { facts, text };
  }
  facts.needsParse = {
    all: occurrencesNeedParse(text, facts.starts, length, grammar, false),
    definitionsOnly: occurrencesNeedParse(text, facts.starts, length, grammar, true),
  };
  return { facts, text };
}

/**
 * The kinds of a file's occurrences: the lexical scan's where it is certain (in a file the parse reads with errors, its
 * recovery may take a comment for code), the parse's elsewhere; without a parse, `text` where the scan cannot tell.
 */
function mergeKinds(
  lexical: ReadonlyArray<OccurrenceKind | undefined> | undefined,
  parsed: readonly OccurrenceKind[] | undefined,
): OccurrenceKind[] | undefined {
  if (!lexical) return parsed ? [...parsed] : undefined;
  return lexical.map((kind, at) => kind ?? parsed?.[at] ?? 'text');
}

/** Locates the occurrence at position `at` of `starts` in `text`. */
function locator(text: string, starts: readonly number[], length: number): (at: number) => Located {
  let lines: LineIndex | undefined;
  return (at) => {
    lines ??= createLineIndex(text);
    const { line, column, lineStart } = lines.locate(starts[at]);
    return {
      line,
      column,
      snippet: makeSnippet(lines.lineText(lineStart), column - 1, length),
      name: text.slice(starts[at], starts[at] + length),
    };
  };
}

/**
 * Turns a file's facts into what it adds to the search in its current state: the same decisions whether the facts were read
 * on this thread (`classify` parses on demand) or ahead on another (its kinds are in `facts.parsed`).
 */
async function decideFile(
  path: string,
  facts: FileFacts,
  context: FileScanContext,
  classify: (grammar: GrammarId) => Promise<{ kinds?: OccurrenceKind[]; classifiedBy?: FileScan['classifiedBy'] }>,
  locate: (at: number) => Located,
): Promise<FileScan> {
  const { resultTypes, room } = context;
  const scan: FileScan = { scanned: facts.scanned, hits: [], overflow: [] };
  if (facts.largeOnly) scan.large = true;
  if (facts.binary) {
    scan.binary = true;
    scan.length = facts.length;
  }
  const { starts } = facts;
  if (starts.length === 0) return scan;
  const wanted = CONTENT_TYPES.filter((type) => resultTypes.has(type));
  if (!wanted.some((type) => room[type] > 0)) {
    // Every content category is full: whatever these occurrences are, none can be shown.
    scan.overflow.push(...wanted);
    return scan;
  }
  let kinds: OccurrenceKind[] | undefined;
  const language = languageOfPath(path);
  // When definitions are all that can still change the answer (usages and text not wanted, or already past
  // max_results), a file whose occurrences all sit where no declaration name can is not parsed.
  const definitionsOnly = !(['usage', 'text'] as const).some((type) => resultTypes.has(type) && !context.overflowed.has(type));
  const needsParse = definitionsOnly ? facts.needsParse.definitionsOnly : facts.needsParse.all;
  if (needsParse && language?.grammar) {
    if (facts.oversize) scan.large = true;
    else {
      const classified = await classify(language.grammar);
      kinds = classified.kinds && mergeKinds(facts.lexical, classified.kinds);
      scan.classifiedBy = classified.classifiedBy;
      if (!kinds) scan.failedGrammar = language.name;
    }
  } else if (needsParse && language?.codeWithoutGrammar) {
    scan.noGrammar = language.name;
  } else if (facts.lexical) {
    kinds = mergeKinds(facts.lexical, undefined);
    if (kinds!.some((kind) => kind !== 'text')) scan.classifiedBy = 'lexical';
  }
  const taken: Record<ContentType, number> = { definition: 0, usage: 0, text: 0 };
  for (let at = 0; at < starts.length; at++) {
    const kind = kinds?.[at] ?? 'text';
    if (!resultTypes.has(kind)) continue;
    // Files come in path order, so a kind already holding max_results hits cannot show later ones: count only.
    if (taken[kind] >= room[kind]) {
      if (!scan.overflow.includes(kind)) scan.overflow.push(kind);
      continue;
    }
    taken[kind]++;
    const { line, column, snippet, name } = locate(at);
    const hit: Omit<SearchHit, 'path'> = { result_type: kind, line, column, snippet };
    if (kind !== 'text') hit.name = name;
    scan.hits.push(hit);
  }
  return scan;
}

/** Finds and classifies the query's occurrences in one file's bytes on this thread, parsing only when the search needs it. */
export async function scanFile(path: string, bytes: Uint8Array, context: FileScanContext & { classify: ClassifyFile }): Promise<FileScan> {
  const { facts, text } = readFacts(path, bytes, context.matcher, context.resultTypes);
  return decideFile(
    path,
    facts,
    context,
    // Asked only when occurrences were found, so the text was decoded.
    (grammar) => context.classify(path, grammar, text!, facts.starts),
    text === undefined ? () => ({ line: 0, column: 0, snippet: '' }) : locator(text, facts.starts, context.matcher.query.length),
  );
}

/**
 * Reads one file's facts ahead, for a search on another thread: parses whenever a search could need it, and locates the
 * first `maxResults` occurrences of each wanted kind, and with text wanted the first `maxResults` of all (which show as text
 * when the search does not parse).
 */
export async function readFileFacts(
  path: string,
  bytes: Uint8Array,
  request: {
    matcher: LiteralMatcher;
    resultTypes: ReadonlySet<ResultType>;
    maxResults: number;
    classify: ClassifyFile;
    /** Kinds the search had past max_results when the file was read: they only grow, so the search still has them when it decides. */
    overflowed?: ReadonlySet<ResultType>;
  },
): Promise<FileFacts> {
  const { facts, text } = readFacts(path, bytes, request.matcher, request.resultTypes);
  if (text === undefined || facts.starts.length === 0) return facts;
  const grammar = languageOfPath(path)?.grammar;
  // Without usages or text wanted or still open, the search never needs more than the definitions' parses.
  const open = (type: ResultType) => request.resultTypes.has(type) && !request.overflowed?.has(type);
  const definitionsOnly = !open('usage') && !open('text');
  if ((definitionsOnly ? facts.needsParse.definitionsOnly : facts.needsParse.all) && grammar && !facts.oversize) {
    const classified = await request.classify(path, grammar, text, facts.starts);
    facts.parsed = classified.kinds ? { kinds: classified.kinds } : { failed: true };
  }
  const locate = locator(text, facts.starts, request.matcher.query.length);
  // As the search will decide them: without a parse, only the lexical scan's usages (its text occurrences show as text anyway).
  const kinds = facts.parsed
    ? facts.parsed.kinds && mergeKinds(facts.lexical, facts.parsed.kinds)
    : facts.lexical?.map((kind) => kind ?? 'text');
  const { maxResults } = request;
  // Unparsed (or parsed but not needed by the search), every occurrence shows as text: only when text is wanted and open.
  const asText = open('text') ? maxResults : 0;
  const perKind: Record<OccurrenceKind, number> = { definition: 0, usage: 0, text: 0 };
  facts.located = [];
  for (let at = 0; at < facts.starts.length; at++) {
    const kind = kinds?.[at];
    const shownAsKind = kind !== undefined && open(kind) && perKind[kind]++ < maxResults;
    if (at < asText || shownAsKind) facts.located.push([at, locate(at)]);
  }
  return facts;
}

/** What a file adds to the search, from facts read ahead on another thread; rejects when they fall short (read it then). */
export function decideFromFacts(path: string, facts: FileFacts, context: FileScanContext): Promise<FileScan> {
  const located = new Map(facts.located);
  return decideFile(
    path,
    facts,
    context,
    async () => {
      // Parsed ahead whenever the search could need it; should that ever not hold, the caller reads the file itself.
      if (!facts.parsed) throw new Error(`${path} was not parsed ahead`);
      return { kinds: facts.parsed.kinds, classifiedBy: facts.parsed.kinds ? 'parse' : undefined };
    },
    (at) => {
      const found = located.get(at);
      if (!found) throw new Error(`occurrence ${at} of ${path} was not located ahead`);
      return found;
    },
  );
}
