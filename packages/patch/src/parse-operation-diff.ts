import type { PatchChunk } from './patch-syntax.js';
import { parseUpdateBody } from './parse-update-body.js';
import { parseV4aCreateDiff } from './v4a-diff.js';

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
 * Reads the diff of one create operation as the OpenAI Agents SDK's `applyDiff` does: every line starts with `+`, the
 * lines are joined with LF and no final line ending is added (a diff ending in a bare `+` line gives one). A line that
 * names or frames a file is refused.
 */
export function parseCreateDiff(diff: string, path: string): { ok: true; content: string } | DiffParseFailure {
  return parseV4aCreateDiff(diff, path);
}
