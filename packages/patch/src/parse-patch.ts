import type { ParsedPatch, PatchOperation } from './patch-syntax.js';
import { BEGIN, END, HEADER, MOVE, updateBodyMarker } from './patch-markers.js';
import { parseUpdateBody } from './parse-update-body.js';

/** The outcome of parsing patch text. */
export type ParsePatchResult = { ok: true; patch: ParsedPatch } | { ok: false; line: number; message: string };

const HEREDOC = /^(?:(?:apply_patch|applypatch)\s+)?<<-?\s*(['"]?)([A-Za-z_][\w-]*)\1\s*$/;

const FORMAT_REMINDER =
  'The format is:\n*** Begin Patch\n*** Update File: path/to/file\n@@ optional anchor line\n context line\n-removed line\n+added line\n*** End Patch';

function unifiedDiffHint(lines: readonly string[]): string {
  const looksUnified = lines.some((line) =>
    /^(?:diff --git |--- (?:a\/|\/dev\/null)|\+\+\+ (?:b\/|\/dev\/null)|@@ -\d+(?:,\d+)? \+\d+)/.test(line),
  );
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

/** Whether a line ends an Add body: a file header or End Patch. Add content lines start with "+", so padding is unambiguous there. */
function endsAddBody(line: string): boolean {
  const trimmed = line.trim();
  return HEADER.test(trimmed) || trimmed === END;
}

/**
 * Parses apply_patch text, accepting what models send: padding, heredoc/fence wrappers, CRLF, stacked `@@` anchors.
 * Markers may be padded where they cannot be content: the Begin/End Patch lines, headers between operations and in
 * Add bodies. Inside an Update body a line led by a space is always context. The last non-blank line is always the
 * End Patch marker (padded or not); to keep a context line ` *** End Patch` at the very end, close with a real one.
 */
export function parsePatch(input: string): ParsePatchResult {
  const raw = input
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .split('\n');
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
  const fail = (index: number, message: string): ParsePatchResult => ({
    ok: false,
    line: index + 1,
    message: `line ${index + 1}: ${message}`,
  });
  const body = raw.slice(first, last + 1);
  if (first > last || raw[first].trim() !== BEGIN) {
    const got = first <= last ? JSON.stringify(raw[first].slice(0, 80)) : 'nothing';
    return fail(
      Math.min(first, raw.length - 1),
      `expected "${BEGIN}" as the first line, got ${got}.${unifiedDiffHint(body)}${jsonHint(input)} ${FORMAT_REMINDER}`,
    );
  }
  if (last === first || raw[last].trim() !== END) {
    return fail(
      last,
      `expected "${END}" as the last line, got ${JSON.stringify(raw[last].slice(0, 80))}. Close the patch with "${END}" (was the patch cut off?).`,
    );
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
        else
          return fail(
            index,
            `expected a line starting with "+" in the content of added file ${path}, got ${JSON.stringify(content.slice(0, 80))}. Every line of an added file starts with "+".`,
          );
        index++;
      }
      operations.push({ kind: 'add', path, content: lines.map((line) => `${line}\n`).join(''), line: headerIndex + 1 });
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
    const update = parseUpdateBody(raw, index, last, path, 'patch');
    if (!update.ok) return fail(update.index, update.message);
    const chunks = update.chunks;
    index = update.next;
    if (chunks.length === 0 && moveTo === undefined) {
      return fail(headerIndex, `"*** Update File: ${path}" has no chunks; add "@@" chunks with context, "-" and "+" lines.`);
    }
    operations.push({ kind: 'update', path, moveTo, chunks, line: headerIndex + 1 });
  }
  if (operations.length === 0)
    return fail(
      last,
      `the patch has no file operations; add "*** Add File:", "*** Delete File:" or "*** Update File:" sections before "${END}".`,
    );
  return { ok: true, patch: { operations } };
}
