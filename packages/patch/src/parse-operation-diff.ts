import type { PatchChunk } from './patch-syntax.js';
import { isFileMarker, updateBodyMarker } from './patch-markers.js';
import { parseUpdateBody } from './parse-update-body.js';

/** Why a diff does not parse: the 1-based line of the diff and the message. */
export interface DiffParseFailure {
  ok: false;
  line: number;
  message: string;
}

function diffLines(diff: string): string[] {
  return diff
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .split('\n');
}

const failure = (index: number, message: string): DiffParseFailure => ({
  ok: false,
  line: index + 1,
  message: `line ${index + 1} of the diff: ${message}`,
});

/**
 * Reads the diff of one update operation (a V4A diff without file headers: `@@` anchors, context, `-` and `+` lines,
 * `*** End of File`). A line that names or frames a file (`*** Update File:`, `*** Delete File:`, `*** Add File:`,
 * `*** Move to:`, `*** Begin Patch`, `*** End Patch`) is refused: the operation touches only its own path.
 */
export function parseUpdateDiff(diff: string, path: string): { ok: true; chunks: PatchChunk[] } | DiffParseFailure {
  if (diff.trim() === '')
    return failure(0, `the diff for ${path} has no changes; send context (" line"), removed ("-line") and added ("+line") lines.`);
  const lines = diffLines(diff);
  const body = parseUpdateBody(lines, 0, lines.length, path, 'diff');
  if (!body.ok) return failure(body.index, body.message);
  if (body.chunks.length === 0)
    return failure(0, `the diff for ${path} has no changes; send context (" line"), removed ("-line") and added ("+line") lines.`);
  return { ok: true, chunks: body.chunks };
}

/**
 * Reads the diff of one create operation: every line starts with `+`; the file gets each line with a line ending,
 * as an added file in a patch does. Blank lines between `+` lines are kept as empty lines, trailing ones dropped.
 */
export function parseCreateDiff(diff: string, path: string): { ok: true; content: string } | DiffParseFailure {
  const lines = diffLines(diff);
  const content: string[] = [];
  let blankRun = 0;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index];
    if (line.startsWith('+')) {
      for (; blankRun > 0; blankRun--) content.push('');
      content.push(line.slice(1));
      continue;
    }
    if (line.trim() === '') {
      blankRun++;
      continue;
    }
    const marker = updateBodyMarker(line);
    if (marker !== undefined && isFileMarker(marker)) {
      return failure(
        index,
        `${JSON.stringify(line.slice(0, 80))} is a patch file marker; this diff may only create ${path}. Send each file as its own operation; to write such a line into the file, prefix it with "+".`,
      );
    }
    return failure(
      index,
      `expected a line starting with "+" in the content of ${path}, got ${JSON.stringify(line.slice(0, 80))}. Every line of a created file starts with "+".`,
    );
  }
  return { ok: true, content: content.map((line) => `${line}\n`).join('') };
}
