import { inferIndentStyle, mapAddedIndentation, type IndentStyle } from './indentation.js';
import { LineMatcher, MATCH_PASSES, lineKey, type MatchPass } from './line-matcher.js';
import type { ChunkLine, PatchChunk } from './patch-syntax.js';
import type { EditRegion } from './diff-entry.js';
import type { LineList, TextLines } from './document-lines.js';
import { spliceDocument, type SplicePiece } from './splice-document.js';
import type { TextDocument } from './text-document.js';

/** Where one chunk would apply, or why it cannot. */
export type ChunkStatus =
  | {
      state: 'applies';
      chunk: PatchChunk;
      /** 1-based first replaced line (or the line an insertion follows). */ line: number;
      pass: MatchPass;
    }
  | { state: 'not_found'; chunk: PatchChunk; detail: string }
  | { state: 'ambiguous'; chunk: PatchChunk; candidates: number[]; detail: string };

/** The outcome of matching every chunk of an Update File operation against a document. */
export interface UpdatePlan {
  ok: boolean;
  chunks: ChunkStatus[];
  /** The updated document (when ok). */
  document?: TextDocument;
  /** The replaced regions, for the diff (when ok). */
  regions?: EditRegion[];
  /** The updated document's lines as a view over the old ones (when ok), for the diff. */
  newLines?: LineList;
}

interface Replacement {
  start: number;
  oldCount: number;
  ops: readonly ChunkLine[];
  order: number;
}

/** How an Update File operation's chunks are placed: the rules of the grammar that produced them. */
export interface UpdateRules {
  /**
   * How a chunk whose lines are not found is retried: `'once'` as Codex does (an empty last old line and an empty last
   * new line, each taken as the file's final newline, are dropped, once), `'blank-context'` by dropping trailing
   * whitespace-only context lines while other old lines remain.
   */
  trailingBlankRetry: 'once' | 'blank-context';
  /**
   * Whether a chunk marked `*** End of File` may match elsewhere when it does not match at the end. Codex's
   * apply_patch refuses it; a per-file diff keeps looking.
   */
  endOfFileFallback: boolean;
}

/** The rules of Codex's apply_patch, which the `apply_patch` tool follows. */
export const CODEX_UPDATE_RULES: UpdateRules = { trailingBlankRetry: 'once', endOfFileFallback: false };

/** The rules of per-file diffs (file operations). */
export const DIFF_UPDATE_RULES: UpdateRules = { trailingBlankRetry: 'blank-context', endOfFileFallback: true };

const MAX_CANDIDATES = 10;
/** Indented lines read to tell a file's indentation unit. */
const STYLE_SAMPLE_LINES = 4000;
const quote = (text: string) => JSON.stringify(text.length > 120 ? `${text.slice(0, 120)}…` : text);

function oldTexts(ops: readonly ChunkLine[]): string[] {
  const texts: string[] = [];
  for (const op of ops) if (op.kind !== '+') texts.push(op.text);
  return texts;
}

/** Why a chunk's context was not found: the closest region of the file and its first differing line. */
export function describeMiss(matcher: LineMatcher, ops: readonly ChunkLine[], from: number, what: string): string {
  const pattern = oldTexts(ops);
  const patternOps = ops.filter((op) => op.kind !== '+');
  const lines = matcher.lines;
  const closest = matcher.closest(pattern, from);
  if (!closest)
    return `${what} was not found: none of its ${pattern.length} context/removed lines occurs in the file (even ignoring whitespace).`;
  const start = closest.start;
  const shownFrom = Math.max(0, start - 1);
  const shownTo = Math.min(lines.length, start + pattern.length + 1, shownFrom + 14);
  const width = String(shownTo).length;
  const region = lines
    .slice(shownFrom, shownTo)
    .map((line, k) => `      ${String(shownFrom + k + 1).padStart(width)} | ${line.text}`)
    .join('\n');
  let difference = '';
  for (let i = 0; i < pattern.length; i++) {
    const fileLine = lines.at(start + i);
    if (!fileLine) {
      difference = `the file ends at line ${lines.length}, but the patch (line ${patternOps[i].line}) expects more: ${quote(pattern[i])}`;
      break;
    }
    if (lineKey(fileLine.text, 3) !== lineKey(pattern[i], 3)) {
      difference = `file line ${start + i + 1} is ${quote(fileLine.text)} where the patch (line ${patternOps[i].line}) expects ${quote(pattern[i])}`;
      break;
    }
  }
  if (!difference)
    difference = `those lines only match before line ${from + 1}, where this chunk's search starts (chunks must follow file order and come after their @@ anchors)`;
  return `${what} was not found. Closest region (lines ${shownFrom + 1}-${shownTo}, ${closest.matching} of ${pattern.length} lines alike):\n${region}\n    first difference: ${difference}`;
}

/** Matches each chunk in order (each search starts after the previous chunk and after the chunk's `@@` anchors). */
export function planUpdate(document: TextDocument, chunks: readonly PatchChunk[], rules: UpdateRules = DIFF_UPDATE_RULES): UpdatePlan {
  const wanted: string[] = [];
  for (const chunk of chunks) {
    wanted.push(...chunk.anchors);
    for (const line of chunk.lines) if (line.kind !== '+') wanted.push(line.text);
  }
  const matcher = new LineMatcher(document.lines, wanted);
  const total = document.lines.length;
  const statuses: ChunkStatus[] = [];
  const replacements: Replacement[] = [];
  let cursor = 0;
  let fileStyle: { style: IndentStyle | undefined } | undefined;
  const styleOfFile = () => (fileStyle ??= { style: inferIndentStyle(texts(document.lines), STYLE_SAMPLE_LINES) }).style;
  chunks.forEach((chunk, order) => {
    let from = cursor;
    for (const anchor of chunk.anchors) {
      const hit = matcher.findAnchor(anchor, from);
      if (hit === undefined) {
        const where = from > 0 ? ` after line ${from}` : '';
        statuses.push({ state: 'not_found', chunk, detail: `its @@ anchor ${quote(anchor)} was not found${where}.` });
        return;
      }
      from = hit + 1;
    }
    const anchored = chunk.anchors.length > 0;
    let ops: readonly ChunkLine[] = chunk.lines;
    if (ops.every((op) => op.kind === '+')) {
      const at = chunk.endOfFile || !anchored ? total : from;
      replacements.push({ start: at, oldCount: 0, ops, order });
      statuses.push({ state: 'applies', chunk, line: at, pass: 0 });
      if (anchored) cursor = at;
      return;
    }
    let retried = false;
    for (;;) {
      const pattern = oldTexts(ops);
      let located: { start: number; pass: MatchPass } | undefined = pattern.length === 0 ? { start: from, pass: 0 } : undefined;
      let ambiguous: { candidates: number[]; pass: MatchPass } | undefined;
      if (!located && chunk.endOfFile && total - pattern.length >= from) {
        for (const pass of [0, 1, 2, 3] as const) {
          if (
            matcher.matchesAt(
              pattern.map((text) => lineKey(text, pass)),
              pass,
              total - pattern.length,
            )
          ) {
            located = { start: total - pattern.length, pass };
            break;
          }
        }
      }
      if (!located && (!chunk.endOfFile || rules.endOfFileFallback)) {
        for (const pass of [0, 1, 2, 3] as const) {
          const hits = matcher.find(pattern, pass, from, total, anchored ? 1 : MAX_CANDIDATES);
          if (hits.length === 1 || (anchored && hits.length > 0)) located = { start: hits[0], pass };
          else if (hits.length > 1) ambiguous = { candidates: hits, pass };
          if (located || ambiguous) break;
        }
      }
      if (located) {
        // Matched only with whitespace relaxed: added lines take the file's indentation, keyed by the matched lines.
        if (located.pass > 0)
          ops = mapAddedIndentation(ops, document.lines.slice(located.start, located.start + pattern.length), styleOfFile);
        replacements.push({ start: located.start, oldCount: pattern.length, ops, order });
        statuses.push({ state: 'applies', chunk, line: located.start + 1, pass: located.pass });
        cursor = located.start + pattern.length;
        return;
      }
      if (ambiguous) {
        const lines = ambiguous.candidates.map((start) => start + 1);
        const more = ambiguous.candidates.length >= MAX_CANDIDATES ? ' (and possibly more)' : '';
        const pass = ambiguous.pass === 0 ? '' : ` (comparing ${MATCH_PASSES[ambiguous.pass]}-insensitively)`;
        statuses.push({
          state: 'ambiguous',
          chunk,
          candidates: lines,
          detail: `its context matches ${lines.length} places${pass}, starting at lines ${lines.join(', ')}${more}. Add an "@@ <line>" anchor naming a unique line just above the intended place (e.g. the enclosing function or class), or more context lines.`,
        });
        return;
      }
      // A trailing blank context line often stands for the end of the file or a separator: retry without it.
      if (rules.trailingBlankRetry === 'once') {
        if (!retried) {
          retried = true;
          const trimmed = withoutFinalNewline(ops);
          if (trimmed) {
            ops = trimmed;
            continue;
          }
        }
      } else {
        const last = ops[ops.length - 1];
        if (last.kind === ' ' && last.text.trim() === '' && ops.some((op, k) => k < ops.length - 1 && op.kind !== '+')) {
          ops = ops.slice(0, -1);
          continue;
        }
      }
      if (chunk.endOfFile && !rules.endOfFileFallback && matcher.find(oldTexts(chunk.lines), 3, from, total, 1).length > 0) {
        statuses.push({
          state: 'not_found',
          chunk,
          detail: `its lines occur in the file, but not at its end, where "*** End of File" puts them. Drop that marker, or end the chunk with the file's last lines.`,
        });
        return;
      }
      statuses.push({ state: 'not_found', chunk, detail: describeMiss(matcher, chunk.lines, from, 'its context') });
      return;
    }
  });
  if (statuses.some((status) => status.state !== 'applies')) return { ok: false, chunks: statuses };
  return { ok: true, chunks: statuses, ...rebuild(document, replacements) };
}

/**
 * The chunk without its final newline, as Codex's apply-patch retries a miss: an empty last old line is dropped from the
 * old lines and an empty last new line from the new lines (a context line is both). Undefined when the last old line
 * is not empty.
 */
function withoutFinalNewline(ops: readonly ChunkLine[]): ChunkLine[] | undefined {
  const lastOld = ops.findLastIndex((op) => op.kind !== '+');
  if (lastOld < 0 || ops[lastOld].text !== '') return undefined;
  const lastNew = ops.findLastIndex((op) => op.kind !== '-');
  const result: (ChunkLine | undefined)[] = [...ops];
  // Leaving the new lines, a context line stays an old line; leaving the old lines, it stays a new line.
  const newLine = result[lastNew];
  if (newLine && newLine.text === '') result[lastNew] = newLine.kind === ' ' ? { ...newLine, kind: '-' } : undefined;
  const oldLine = result[lastOld];
  if (oldLine) result[lastOld] = oldLine.kind === ' ' ? { ...oldLine, kind: '+' } : undefined;
  return result.filter((op): op is ChunkLine => op !== undefined);
}

function* texts(lines: TextLines): Iterable<string> {
  for (let index = 0; index < lines.length; index++) yield lines.textAt(index);
}

function rebuild(
  document: TextDocument,
  replacements: Replacement[],
): { document: TextDocument; regions: EditRegion[]; newLines: LineList } {
  const eol = document.majorityEol;
  const sorted = [...replacements].sort((a, b) => a.start - b.start || a.order - b.order);
  const old = document.lines;
  // The new document as runs of kept old lines and added lines: kept runs are copied as ranges, never split into lines.
  const pieces: SplicePiece[] = [];
  let length = 0;
  const keep = (from: number, to: number) => {
    if (to <= from) return;
    const last = pieces[pieces.length - 1];
    if (last && 'to' in last && last.to === from) last.to = to;
    else pieces.push({ from, to });
    length += to - from;
  };
  const add = (text: string) => {
    const last = pieces[pieces.length - 1];
    if (last && 'lines' in last) last.lines.push({ text, eol });
    else pieces.push({ lines: [{ text, eol }] });
    length++;
  };
  const regions: EditRegion[] = [];
  let index = 0;
  for (const replacement of sorted) {
    keep(index, replacement.start);
    const newStart = length;
    let oldIndex = replacement.start;
    for (const op of replacement.ops) {
      if (op.kind === '+') add(op.text);
      else {
        if (op.kind === ' ') keep(oldIndex, oldIndex + 1);
        oldIndex++;
      }
    }
    regions.push({ oldStart: replacement.start, oldCount: replacement.oldCount, newStart, newCount: length - newStart });
    index = replacement.start + replacement.oldCount;
  }
  keep(index, old.length);
  const spliced = spliceDocument(document, pieces, eol);
  return { document: spliced.document, regions, newLines: spliced.lines };
}
