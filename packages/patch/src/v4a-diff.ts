import type { EditRegion } from './diff-entry.js';
import { LineMatcher, type MatchPass } from './line-matcher.js';
import { END_OF_FILE, isFileMarker, updateBodyMarker } from './patch-markers.js';
import type { ChunkLine, PatchChunk } from './patch-syntax.js';
import { describeMiss, type ChunkStatus } from './plan-update.js';
import { documentOfLines, type LineEnding, type TextDocument, type TextLine } from './text-document.js';

/**
 * The V4A dialect of a single file operation (OpenAI's `apply_patch_call`, the Agents SDK editor), read and matched as
 * `applyDiff` of `@openai/agents-core` does, so a diff the SDK accepts writes the bytes the SDK writes; only a BOM
 * stays at the start of the file where the SDK would move or drop it with the first line.
 */

/** Why a V4A diff is refused before or while it is matched. */
export type V4aRefusal =
  { ok: false; kind: 'parse'; line: number; message: string } | { ok: false; kind: 'context'; chunks: ChunkStatus[] };

/** The updated document of a V4A update, with the changed region for the report, or why it is refused. */
export type V4aUpdateResult = { ok: true; document: TextDocument; regions: EditRegion[]; chunks: ChunkStatus[] } | V4aRefusal;

const END_PATCH = '*** End Patch';
/** Lines that end a section (and, at the start of one, everything that follows). */
const SECTION_ENDS = [END_PATCH, '*** Update File:', '*** Delete File:', '*** Add File:', END_OF_FILE];

/** The diff's lines as the SDK reads them: CRLF or LF separated, a final line ending dropped. */
export function v4aDiffLines(diff: string): string[] {
  const lines = diff.split(/\r?\n/).map((line) => line.replace(/\r$/, ''));
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** The 0-based index of the first line naming or framing another file, which a single file's diff may not hold. */
export function fileMarkerLine(lines: readonly string[]): number {
  return lines.findIndex((line) => {
    const marker = updateBodyMarker(line);
    return marker !== undefined && isFileMarker(marker);
  });
}

const quoted = (line: string) => JSON.stringify(line.slice(0, 80));

/**
 * The content of a created file: every line of the diff starts with `+` and the lines are joined with LF, without a
 * final line ending unless the diff ends with a bare `+` line (as the SDK writes it).
 */
export function parseV4aCreateDiff(
  diff: string,
  path: string,
): { ok: true; content: string } | { ok: false; line: number; message: string } {
  const lines = v4aDiffLines(diff);
  const content: string[] = [];
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index];
    if (line.startsWith('+')) {
      content.push(line.slice(1));
      continue;
    }
    const marker = updateBodyMarker(line);
    const message =
      marker !== undefined && isFileMarker(marker)
        ? `${quoted(line)} is a patch file marker; this diff may only create ${path}. Send each file as its own operation; to write such a line into the file, prefix it with "+".`
        : `expected a line starting with "+" in the content of ${path}, got ${quoted(line)}. Every line of a created file starts with "+" (an empty line is a bare "+").`;
    return { ok: false, line: index + 1, message: `line ${index + 1} of the diff: ${message}` };
  }
  return { ok: true, content: content.join('\n') };
}

/** One replacement in the SDK's line model: at `origIndex`, `deleted` lines give way to `inserted` ones. */
interface V4aChunk {
  origIndex: number;
  deleted: string[];
  inserted: string[];
}

/** One section of the diff as read: its context, its replacements (relative to the context) and where it ends. */
interface V4aSection {
  context: string[];
  chunks: V4aChunk[];
  report: PatchChunk;
  end: number;
  eof: boolean;
}

class V4aParseError extends Error {
  constructor(
    readonly index: number,
    message: string,
  ) {
    super(message);
  }
}

function notAChunkLine(index: number, line: string, path: string): V4aParseError {
  return new V4aParseError(
    index,
    `expected a chunk line in ${path} starting with " " (context), "-" (removed), "+" (added), "@@" (anchor) or "${END_OF_FILE}", got ${quoted(line)}. If it is unchanged context, prefix it with a space.`,
  );
}

/** Reads one section from `start` (after its anchors), as the SDK's `readSection`. */
function readSection(lines: readonly string[], start: number, report: PatchChunk, path: string): V4aSection {
  const context: string[] = [];
  const chunks: V4aChunk[] = [];
  let deleted: string[] = [];
  let inserted: string[] = [];
  let mode: ChunkLine['kind'] = ' ';
  let index = start;
  const flush = () => {
    if (deleted.length === 0 && inserted.length === 0) return;
    chunks.push({ origIndex: context.length - deleted.length, deleted, inserted });
    deleted = [];
    inserted = [];
  };
  for (; index < lines.length; index++) {
    const raw = lines[index];
    if (raw.startsWith('@@') || SECTION_ENDS.some((marker) => raw.startsWith(marker)) || raw === '***') break;
    if (raw.startsWith('***')) throw notAChunkLine(index, raw, path);
    const line = raw === '' ? ' ' : raw;
    const kind = line[0];
    if (kind !== ' ' && kind !== '-' && kind !== '+') throw notAChunkLine(index, raw, path);
    if (kind === ' ' && mode !== ' ') flush();
    mode = kind;
    const text = line.slice(1);
    report.lines.push({ kind, text, line: index + 1 });
    if (kind !== '+') context.push(text);
    if (kind === '-') deleted.push(text);
    if (kind === '+') inserted.push(text);
  }
  flush();
  if (lines[index] === END_OF_FILE) {
    report.endOfFile = true;
    return { context, chunks, report, end: index + 1, eof: true };
  }
  if (index === start && lines[index]?.startsWith('@@'))
    throw new V4aParseError(
      index,
      `${quoted(lines[index])} is not an anchor line: write "@@" alone or "@@ " followed by the line to find.`,
    );
  if (index === start)
    throw new V4aParseError(
      index,
      `the chunk of ${path} starting here has no lines; add context (" line"), removed ("-line") or added ("+line") lines after its "@@" line.`,
    );
  return { context, chunks, report, end: index, eof: false };
}

/** Searches the SDK's line model: first match at or after `from`, exact, then ignoring trailing, then outer whitespace. */
class ContextSearch {
  private readonly matcher: LineMatcher;

  constructor(readonly texts: readonly string[]) {
    this.matcher = new LineMatcher(texts.map((text): TextLine => ({ text, eol: '' })));
  }

  find(context: readonly string[], from: number, to = this.texts.length): number {
    if (context.length === 0) return from;
    for (const pass of [0, 1, 2] as MatchPass[]) {
      const [hit] = this.matcher.find(context, pass, from, to, 1);
      if (hit !== undefined) return hit;
    }
    return -1;
  }

  /** With `*** End of File`: the context at the end of the file (before a final line ending), else anywhere after `from`. */
  findAtEnd(context: readonly string[], from: number): number {
    const texts = this.texts;
    const end = texts.length > 1 && texts[texts.length - 1] === '' ? texts.length - 1 : texts.length;
    const atEnd = this.find(context, Math.max(0, end - context.length), end);
    return atEnd !== -1 ? atEnd : this.find(context, Math.min(from, end), end);
  }

  /** The cursor after an `@@` anchor: a line equal to it (then equal once trimmed) before or after the cursor. */
  advanceToAnchor(anchor: string, cursor: number, searchBefore: boolean): { cursor: number; found: boolean } {
    const texts = this.texts;
    for (const key of [(text: string) => text, (text: string) => text.trim()]) {
      const wanted = key(anchor);
      if (searchBefore && texts.slice(0, cursor).some((text) => key(text) === wanted)) return { cursor, found: true };
      for (let i = cursor; i < texts.length; i++) if (key(texts[i]) === wanted) return { cursor: i + 1, found: true };
    }
    return { cursor, found: false };
  }
}

/** The file in the SDK's line model: its texts split at LF (a final line ending leaves an empty last text), with endings. */
interface V4aModel {
  texts: string[];
  endings: LineEnding[];
  /** The ending new lines take: CRLF when every line ending of the file is CRLF, else LF (as the SDK decides). */
  eol: '\n' | '\r\n';
}

const BOM = '\uFEFF';

function modelOf(document: TextDocument): V4aModel {
  const lines = document.lines.slice();
  // The SDK reads a file as CRLF only when every line ending is CRLF; otherwise a CR stays part of its line's text.
  const crlf = lines.some((line) => line.eol === '\r\n') && lines.every((line) => line.eol !== '\n');
  const texts = lines.map((line) => (!crlf && line.eol === '\r\n' ? `${line.text}\r` : line.text));
  const endings = lines.map((line): LineEnding => (crlf || line.eol === '' ? line.eol : '\n'));
  const last = lines[lines.length - 1];
  if (!last || last.eol !== '') {
    texts.push('');
    endings.push('');
  }
  // The SDK sees a BOM as the start of the first line's text.
  if (document.bom) texts[0] = BOM + texts[0];
  return { texts, endings, eol: crlf ? '\r\n' : '\n' };
}

/** Reads and matches every section (the SDK's `parseUpdateDiff`): the replacements in file order, or a refusal. */
function matchSections(lines: readonly string[], search: ContextSearch, document: TextDocument, path: string) {
  const chunks: V4aChunk[] = [];
  const statuses: ChunkStatus[] = [];
  let describer: LineMatcher | undefined;
  let cursor = 0;
  let index = 0;
  while (index < lines.length && !SECTION_ENDS.some((marker) => lines[index].startsWith(marker))) {
    const report: PatchChunk = { anchors: [], lines: [], endOfFile: false, line: index + 1 };
    let headers = 0;
    for (; lines[index] === '@@' || lines[index]?.startsWith('@@ '); index++, headers++) {
      const anchor = lines[index].slice(3);
      if (anchor.trim()) report.anchors.push(anchor);
    }
    if (headers === 0 && cursor !== 0)
      throw new V4aParseError(
        index,
        `expected an "@@" line to start the next chunk of ${path} (after "${END_OF_FILE}" or "***"), got ${quoted(lines[index])}.`,
      );
    for (const [position, anchor] of report.anchors.entries()) {
      const advanced = search.advanceToAnchor(anchor, cursor, position === 0);
      // A single anchor is a hint: when no line equals it, the context alone places the chunk.
      if (!advanced.found && headers > 1) {
        const where = cursor > 0 ? ` after line ${cursor}` : '';
        statuses.push({ state: 'not_found', chunk: report, detail: `its @@ anchor ${quoted(anchor)} was not found${where}.` });
        return { ok: false as const, statuses };
      }
      cursor = advanced.cursor;
    }
    const section = readSection(lines, index, report, path);
    const found = section.eof ? search.findAtEnd(section.context, cursor) : search.find(section.context, cursor);
    if (found === -1) {
      describer ??= new LineMatcher(document.lines);
      const what = section.eof ? 'its context (at the end of the file)' : 'its context';
      statuses.push({ state: 'not_found', chunk: report, detail: describeMiss(describer, report.lines, cursor, what) });
      return { ok: false as const, statuses };
    }
    for (const chunk of section.chunks) chunks.push({ ...chunk, origIndex: chunk.origIndex + found });
    statuses.push({ state: 'applies', chunk: report, line: found + 1, pass: 0 });
    cursor = found + section.context.length;
    index = section.end;
  }
  return { ok: true as const, chunks, statuses };
}

/**
 * The document after the replacements, byte for byte what the SDK writes, except that a BOM stays at the start of
 * the file (the SDK keeps it in the first line's text, so it moves or goes with that line).
 */
function rebuild(document: TextDocument, model: V4aModel, chunks: readonly V4aChunk[]): TextDocument | undefined {
  const { texts, endings } = model;
  const result: { text: string; eol: LineEnding }[] = [];
  const kept = (index: number) => ({
    text: index === 0 && document.bom ? texts[0].slice(BOM.length) : texts[index],
    eol: endings[index],
  });
  let origIndex = 0;
  for (const chunk of chunks) {
    if (chunk.origIndex > texts.length || origIndex > chunk.origIndex) return undefined;
    for (; origIndex < chunk.origIndex; origIndex++) result.push(kept(origIndex));
    for (const text of chunk.inserted) result.push({ text, eol: '' });
    origIndex += chunk.deleted.length;
  }
  for (; origIndex < texts.length; origIndex++) result.push(kept(origIndex));
  const lines: TextLine[] = result.map((line, position) => {
    if (position === result.length - 1) return { text: line.text, eol: '' };
    const eol = line.eol || model.eol;
    // A CR kept in a line's text (a mixed-ending file) is that line's CRLF.
    return eol === '\n' && line.text.endsWith('\r') ? { text: line.text.slice(0, -1), eol: '\r\n' } : { text: line.text, eol };
  });
  if (lines.length > 0 && lines[lines.length - 1].text === '') lines.pop();
  return documentOfLines(document.bom, lines, document.majorityEol);
}

/** The one region between the unchanged first and last lines, for the diff report. */
function changedRegion(before: readonly TextLine[], after: readonly TextLine[]): EditRegion[] {
  const same = (a: TextLine, b: TextLine) => a.text === b.text && a.eol === b.eol;
  let head = 0;
  while (head < before.length && head < after.length && same(before[head], after[head])) head++;
  let tail = 0;
  while (
    tail < before.length - head &&
    tail < after.length - head &&
    same(before[before.length - 1 - tail], after[after.length - 1 - tail])
  )
    tail++;
  if (head === before.length && head === after.length) return [];
  return [{ oldStart: head, oldCount: before.length - head - tail, newStart: head, newCount: after.length - head - tail }];
}

/**
 * Applies the V4A diff of one update operation to a document as the Agents SDK's `applyDiff` does: `@@` anchors move
 * the search (one that matches nothing is a hint; stacked ones must each match), each section's context is found at
 * the first place after the previous one (exact, then ignoring trailing whitespace, then outer whitespace),
 * `*** End of File` prefers the end of the file, and an empty diff changes nothing.
 */
export function applyV4aUpdate(document: TextDocument, diff: string, path: string): V4aUpdateResult {
  const lines = v4aDiffLines(diff);
  const model = modelOf(document);
  let matched: ReturnType<typeof matchSections>;
  try {
    matched = matchSections(lines, new ContextSearch(model.texts), document, path);
  } catch (error) {
    if (!(error instanceof V4aParseError)) throw error;
    return { ok: false, kind: 'parse', line: error.index + 1, message: `line ${error.index + 1} of the diff: ${error.message}` };
  }
  if (!matched.ok) return { ok: false, kind: 'context', chunks: matched.statuses };
  const rebuilt = rebuild(document, model, matched.chunks);
  if (!rebuilt) {
    const statuses = matched.statuses;
    const last = statuses[statuses.length - 1];
    statuses[statuses.length - 1] = {
      state: 'not_found',
      chunk: last.chunk,
      detail: 'its lines overlap the lines an earlier chunk changes; chunks must follow file order without overlapping.',
    };
    return { ok: false, kind: 'context', chunks: statuses };
  }
  return { ok: true, document: rebuilt, regions: changedRegion(document.lines.slice(), rebuilt.lines.slice()), chunks: matched.statuses };
}
