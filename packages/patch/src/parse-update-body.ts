import type { ChunkLine, PatchChunk } from './patch-syntax.js';
import { END, END_OF_FILE, HEADER, MOVE, isFileMarker, updateBodyMarker } from './patch-markers.js';

/** The chunks of one Update body, or why it does not parse (`index` is 0-based in the lines given). */
export type UpdateBodyResult = { ok: true; chunks: PatchChunk[]; next: number } | { ok: false; index: number; message: string };

const GIT_RANGE = /^-\d+(?:,\d+)?\s+\+\d+(?:,\d+)?\s+@@\s?(.*)$/;

/**
 * Reads the chunks of an Update body from `raw[start]` up to `end` (exclusive). In a patch (`within: 'patch'`) a file
 * header or End Patch line not led by a space ends the body; in the diff of a single file operation (`within: 'diff'`)
 * such a line is refused, so a diff can never reach a file its operation does not name. Line numbers in the chunks
 * are `index + 1 + lineOffset`.
 */
export function parseUpdateBody(
  raw: readonly string[],
  start: number,
  end: number,
  path: string,
  within: 'patch' | 'diff',
  lineOffset = 0,
): UpdateBodyResult {
  const chunks: PatchChunk[] = [];
  let chunk: PatchChunk | undefined;
  const fail = (index: number, message: string): UpdateBodyResult => ({ ok: false, index, message });
  const startChunk = (at: number): PatchChunk => {
    const created: PatchChunk = { anchors: [], lines: [], endOfFile: false, line: at + 1 + lineOffset };
    chunks.push(created);
    return created;
  };
  let index = start;
  for (; index < end; index++) {
    const content = raw[index];
    const trimmed = content.trim();
    const marker = updateBodyMarker(content);
    if (marker !== undefined && (HEADER.test(marker) || marker === END)) {
      if (within === 'patch') break;
    }
    if (within === 'diff' && marker !== undefined && isFileMarker(marker)) {
      return fail(
        index,
        `${JSON.stringify(content.slice(0, 80))} is a patch file marker; this diff may only change ${path}. Send each file's change as its own operation; to keep such a line as unchanged text, prefix it with a space.`,
      );
    }
    if (content.startsWith('@@') || (trimmed.startsWith('@@') && !content.startsWith(' '))) {
      if (!chunk || chunk.lines.length > 0 || chunk.endOfFile) chunk = startChunk(index);
      let anchor = trimmed.slice(2).trim();
      const gitRange = GIT_RANGE.exec(anchor);
      if (gitRange) anchor = gitRange[1].trim();
      if (anchor) chunk.anchors.push(anchor);
    } else if (marker === END_OF_FILE) {
      if (!chunk || chunk.lines.length === 0) return fail(index, `"${END_OF_FILE}" must follow the lines of a chunk.`);
      chunk.endOfFile = true;
      chunk = undefined;
    } else if (marker !== undefined && MOVE.test(marker)) {
      return fail(index, '"*** Move to:" must come right after its "*** Update File:" line.');
    } else if (within === 'patch' && !chunk && trimmed === '') {
      // Blank lines between chunks (after "*** End of File", or before the first chunk) separate; they are not context.
      continue;
    } else if (content === '' || content[0] === ' ' || content[0] === '+' || content[0] === '-') {
      if (!chunk || chunk.endOfFile) chunk = startChunk(index);
      const kind = (content === '' ? ' ' : content[0]) as ChunkLine['kind'];
      chunk.lines.push({ kind, text: content.slice(1), line: index + 1 + lineOffset });
    } else if (trimmed === '') {
      // A whitespace-only line without a prefix: take it as an empty context line.
      if (!chunk || chunk.endOfFile) chunk = startChunk(index);
      chunk.lines.push({ kind: ' ', text: '', line: index + 1 + lineOffset });
    } else {
      return fail(
        index,
        `expected a chunk line in ${path} starting with " " (context), "-" (removed), "+" (added), "@@" (anchor) or "${END_OF_FILE}", got ${JSON.stringify(content.slice(0, 80))}. If it is unchanged context, prefix it with a space.`,
      );
    }
  }
  // In a diff, blank lines at the end are separators, not context. In a patch they stay context, as in Codex's
  // apply-patch, whose matcher drops one when the chunk is not found with it.
  const last = within === 'diff' ? chunks[chunks.length - 1] : undefined;
  while (last && !last.endOfFile && last.lines.length > 0) {
    const tail = last.lines[last.lines.length - 1];
    if (tail.kind !== ' ' || tail.text !== '' || raw[tail.line - 1 - lineOffset] !== '') break;
    last.lines.pop();
  }
  for (const candidate of chunks) {
    if (candidate.lines.length === 0) {
      return fail(
        candidate.line - 1 - lineOffset,
        `the chunk of ${path} starting here has no lines; add context ("  line"), removed ("-line") or added ("+line") lines after its "@@" line.`,
      );
    }
  }
  return { ok: true, chunks, next: index };
}
