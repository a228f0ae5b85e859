import type { ChunkLine, ParsedPatch, PatchChunk, PatchOperation } from './patch-syntax.js';

/** The outcome of parsing patch text. */
export type ParsePatchResult = { ok: true; patch: ParsedPatch } | { ok: false; line: number; message: string };

const BEGIN = '*** Begin Patch';
const END = '*** End Patch';
const END_OF_FILE = '*** End of File';
const HEADER = /^\*\*\*\s*(Add|Delete|Update) File:\s*(.*?)\s*$/;
const MOVE = /^\*\*\*\s*Move to:\s*(.*?)\s*$/;
const HEREDOC = /^(?:(?:apply_patch|applypatch)\s+)?<<-?\s*(['"]?)([A-Za-z_][\w-]*)\1\s*$/;
const GIT_RANGE = /^-\d+(?:,\d+)?\s+\+\d+(?:,\d+)?\s+@@\s?(.*)$/;

const FORMAT_REMINDER =
  'The format is:\n*** Begin Patch\n*** Update File: path/to/file\n@@ optional anchor line\n context line\n-removed line\n+added line\n*** End Patch';

function unifiedDiffHint(lines: readonly string[]): string {
  const looksUnified = lines.some((line) => /^(?:diff --git |--- (?:a\/|\/dev\/null)|\+\+\+ (?:b\/|\/dev\/null)|@@ -\d+(?:,\d+)? \+\d+)/.test(line));
  return looksUnified
    ? ' This looks like a unified diff (diff --git / ---, +++ / @@ -a,b +c,d @@); apply_patch takes its own format instead: "*** Update File: path" headers, "@@" chunk lines, and no line-number ranges.'
    : '';
}

function jsonHint(text: string): string {
  const trimmed = text.trim();
  if (/^[{["]/.test(trimmed) && (trimmed.includes('\\n') || trimmed.includes('Begin Patch'))) {
    return ' The input looks JSON-encoded (quotes or "\\n" escapes around the patch); send the patch text itself, with real line breaks, as the input string.';
  }
  return '';
}

/**
 * The marker text of a line inside an Update body, or undefined when the line is a chunk line. A line that starts
 * with a space is ALWAYS context (its text is the rest), so ` *** Delete File: x` or ` *** End Patch` quoted from a
 * file stays context; any other padding (a tab, trailing spaces) is read as a padded marker, because such a line
 * cannot be a chunk line.
 */
function updateBodyMarker(line: string): string | undefined {
  return line.startsWith(' ') ? undefined : line.trim();
}

/** Whether a line ends an Add body: a file header or End Patch. Add content lines start with "+", so padding is unambiguous there. */
function endsAddBody(line: string): boolean {
  const trimmed = line.trim();
  return HEADER.test(trimmed) || trimmed === END;
}

/** Whether a line ends an Update body: a file header or End Patch not led by a space (see {@link updateBodyMarker}). */
function endsUpdateBody(line: string): boolean {
  const marker = updateBodyMarker(line);
  return marker !== undefined && (HEADER.test(marker) || marker === END);
}

/**
 * Parses apply_patch text, accepting what models send: padding, heredoc/fence wrappers, CRLF, stacked `@@` anchors.
 * Markers may be padded where they cannot be content: the Begin/End Patch lines, headers between operations and in
 * Add bodies. Inside an Update body a line led by a space is always context. The last non-blank line is always the
 * End Patch marker (padded or not); to keep a context line ` *** End Patch` at the very end, close with a real one.
 */
export function parsePatch(input: string): ParsePatchResult {
  const raw = input.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n').split('\n');
  let first = 0;
  let last = raw.length - 1;
  const skipBlank = () => {
    while (first <= last && raw[first].trim() === '') first++;
    while (last >= first && raw[last].trim() === '') last--;
  };
  skipBlank();
  if (first > last) return { ok: false, line: 1, message: `line 1: expected "${BEGIN}", but the patch is empty. ${FORMAT_REMINDER}` };
  const heredoc = HEREDOC.exec(raw[first].trim());
  if (heredoc && last > first && raw[last].trim() === heredoc[2]) {
    first++;
    last--;
    skipBlank();
  } else if (/^```[\w-]*$/.test(raw[first].trim()) && last > first && raw[last].trim() === '```') {
    first++;
    last--;
    skipBlank();
  }
  const fail = (index: number, message: string): ParsePatchResult => ({ ok: false, line: index + 1, message: `line ${index + 1}: ${message}` });
  const body = raw.slice(first, last + 1);
  if (first > last || raw[first].trim() !== BEGIN) {
    const got = first <= last ? JSON.stringify(raw[first].slice(0, 80)) : 'nothing';
    return fail(Math.min(first, raw.length - 1), `expected "${BEGIN}" as the first line, got ${got}.${unifiedDiffHint(body)}${jsonHint(input)} ${FORMAT_REMINDER}`);
  }
  if (last === first || raw[last].trim() !== END) {
    return fail(last, `expected "${END}" as the last line, got ${JSON.stringify(raw[last].slice(0, 80))}. Close the patch with "${END}" (was the patch cut off?).`);
  }

  const operations: PatchOperation[] = [];
  let index = first + 1;
  while (index < last) {
    const line = raw[index];
    if (line.trim() === '') {
      index++;
      continue;
    }
    const header = HEADER.exec(line.trim());
    if (!header) {
      return fail(
        index,
        `expected a file header ("*** Add File: path", "*** Delete File: path" or "*** Update File: path") or "${END}", got ${JSON.stringify(line.slice(0, 80))}.${unifiedDiffHint(body)}`,
      );
    }
    const [, kind, path] = header;
    if (!path) return fail(index, `expected a path after "*** ${kind} File:".`);
    const headerIndex = index;
    index++;
    if (kind === 'Delete') {
      operations.push({ kind: 'delete', path, line: headerIndex + 1 });
      continue;
    }
    if (kind === 'Add') {
      const lines: string[] = [];
      let blankRun = 0;
      while (index < last && !endsAddBody(raw[index])) {
        const content = raw[index];
        if (content.startsWith('+')) {
          for (; blankRun > 0; blankRun--) lines.push('');
          lines.push(content.slice(1));
        } else if (content.trim() === '') blankRun++;
        else return fail(index, `expected a line starting with "+" in the content of added file ${path}, got ${JSON.stringify(content.slice(0, 80))}. Every line of an added file starts with "+".`);
        index++;
      }
      operations.push({ kind: 'add', path, lines, line: headerIndex + 1 });
      continue;
    }
    // Update File
    let moveTo: string | undefined;
    const move = index < last ? MOVE.exec(updateBodyMarker(raw[index]) ?? '') : null;
    if (index < last && move) {
      if (!move[1]) return fail(index, 'expected a path after "*** Move to:".');
      moveTo = move[1];
      index++;
    }
    const chunks: PatchChunk[] = [];
    let chunk: PatchChunk | undefined;
    const startChunk = (at: number): PatchChunk => {
      const created: PatchChunk = { anchors: [], lines: [], endOfFile: false, line: at + 1 };
      chunks.push(created);
      return created;
    };
    while (index < last && !endsUpdateBody(raw[index])) {
      const content = raw[index];
      const trimmed = content.trim();
      const marker = updateBodyMarker(content);
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
      } else if (content === '' || content[0] === ' ' || content[0] === '+' || content[0] === '-') {
        if (!chunk || chunk.endOfFile) chunk = startChunk(index);
        const kind = (content === '' ? ' ' : content[0]) as ChunkLine['kind'];
        chunk.lines.push({ kind, text: content.slice(1), line: index + 1 });
      } else if (trimmed === '') {
        // A whitespace-only line without a prefix: take it as an empty context line.
        if (!chunk || chunk.endOfFile) chunk = startChunk(index);
        chunk.lines.push({ kind: ' ', text: '', line: index + 1 });
      } else {
        return fail(
          index,
          `expected a chunk line in ${path} starting with " " (context), "-" (removed), "+" (added), "@@" (anchor) or "${END_OF_FILE}", got ${JSON.stringify(content.slice(0, 80))}. If it is unchanged context, prefix it with a space.`,
        );
      }
      index++;
    }
    // Blank lines between this operation and the next header are separators, not context.
    for (const candidate of chunks) {
      while (!candidate.endOfFile && candidate.lines.length > 0) {
        const tail = candidate.lines[candidate.lines.length - 1];
        if (tail.kind !== ' ' || tail.text !== '' || raw[tail.line - 1] !== '') break;
        if (candidate !== chunks[chunks.length - 1]) break;
        candidate.lines.pop();
      }
    }
    for (const candidate of chunks) {
      if (candidate.lines.length === 0) {
        return fail(candidate.line - 1, `the chunk of ${path} starting here has no lines; add context ("  line"), removed ("-line") or added ("+line") lines after its "@@" line.`);
      }
    }
    if (chunks.length === 0 && moveTo === undefined) {
      return fail(headerIndex, `"*** Update File: ${path}" has no chunks; add "@@" chunks with context, "-" and "+" lines.`);
    }
    operations.push({ kind: 'update', path, moveTo, chunks, line: headerIndex + 1 });
  }
  if (operations.length === 0) return fail(last, `the patch has no file operations; add "*** Add File:", "*** Delete File:" or "*** Update File:" sections before "${END}".`);
  return { ok: true, patch: { operations } };
}
