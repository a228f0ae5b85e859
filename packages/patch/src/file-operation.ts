import { ErrorCode, controlCharacterProblem, type ErrorCode as ErrorCodeType } from '@toolhost/core';
import type { EditPhrases } from './edit-phrases.js';
import { parseCreateDiff } from './parse-operation-diff.js';
import { fileMarkerLine, v4aDiffLines } from './v4a-diff.js';
import type { PatchChunk, PatchOperation } from './patch-syntax.js';

/**
 * One file operation as a caller sends it: a {@link PatchOperation}, or a create or update whose content or chunks
 * come as the V4A diff of that one file (OpenAI's `apply_patch_call`, the Agents SDK editor). Each touches only
 * `path` (and `moveTo`).
 */
export type FileOperation =
  PatchOperation | { kind: 'add'; path: string; diff: string } | { kind: 'update'; path: string; moveTo?: string; diff: string };

/** Operations ready for the engine, or why they are refused (nothing was changed). */
export type FileOperationsCheck =
  { ok: true; operations: PatchOperation[] } | { ok: false; code: ErrorCodeType; message: string; line?: number };

type Refusal = Extract<FileOperationsCheck, { ok: false }>;

function refuse(code: ErrorCodeType, message: string, line?: number): Refusal {
  return line === undefined ? { ok: false, code, message } : { ok: false, code, message, line };
}

function checkPath(value: unknown, field: string): Refusal | undefined {
  if (typeof value !== 'string' || value === '') return refuse(ErrorCode.InvalidArguments, `${field} must be a non-empty string.`);
  if (value !== value.trim()) {
    return refuse(
      ErrorCode.InvalidArguments,
      `path ${JSON.stringify(value)} starts or ends with whitespace; file names with surrounding whitespace are not supported: send the path without it.`,
    );
  }
  const control = controlCharacterProblem(value);
  if (control) return refuse(ErrorCode.OutsideWorkspace, control);
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isChunk(value: unknown): value is PatchChunk {
  if (!isRecord(value) || !Array.isArray(value.anchors) || !Array.isArray(value.lines) || typeof value.endOfFile !== 'boolean')
    return false;
  if (!value.anchors.every((anchor) => typeof anchor === 'string')) return false;
  return value.lines.every(
    (line) => isRecord(line) && (line.kind === ' ' || line.kind === '-' || line.kind === '+') && typeof line.text === 'string',
  );
}

/** Numbers chunks built in code (which carry no line numbers of a sent text) by their position. */
function numbered(chunks: readonly PatchChunk[]): PatchChunk[] {
  let line = 0;
  return chunks.map((chunk) => ({
    ...chunk,
    line: typeof chunk.line === 'number' ? chunk.line : ++line,
    lines: chunk.lines.map((entry) => ({ ...entry, line: typeof entry.line === 'number' ? entry.line : ++line })),
  }));
}

function checkOne(value: unknown, phrases: EditPhrases): PatchOperation | Refusal {
  if (!isRecord(value)) return refuse(ErrorCode.InvalidArguments, 'each file operation must be an object with a kind and a path.');
  const badPath = checkPath(value.path, 'path');
  if (badPath) return badPath;
  const path = value.path as string;
  const line = typeof value.line === 'number' ? value.line : undefined;
  const at = line === undefined ? {} : { line };
  switch (value.kind) {
    case 'delete':
      return { kind: 'delete', path, ...at };
    case 'add': {
      if (typeof value.content === 'string') return { kind: 'add', path, content: value.content, ...at };
      if (typeof value.diff !== 'string')
        return refuse(
          ErrorCode.InvalidArguments,
          `${phrases.operation({ kind: 'add', path, content: '' })}: give the content (string) or a diff (string).`,
        );
      const parsed = parseCreateDiff(value.diff, path);
      if (!parsed.ok)
        return refuse(
          ErrorCode.PatchParseError,
          `${phrases.operation({ kind: 'add', path, content: '' })}: ${parsed.message}`,
          parsed.line,
        );
      return { kind: 'add', path, content: parsed.content };
    }
    case 'update': {
      const moveTo = value.moveTo ?? undefined;
      if (moveTo !== undefined) {
        const badMove = checkPath(moveTo, 'moveTo');
        if (badMove) return badMove;
      }
      const move = moveTo === undefined ? {} : { moveTo: moveTo as string };
      const label = phrases.operation({ kind: 'update', path, chunks: [], ...move });
      let chunks: PatchChunk[];
      if (typeof value.diff === 'string') {
        // Read when planned, against the file (as the Agents SDK reads it); only a line naming another file is refused here.
        const marker = fileMarkerLine(v4aDiffLines(value.diff));
        if (marker >= 0) {
          const shown = JSON.stringify(v4aDiffLines(value.diff)[marker].slice(0, 80));
          return refuse(
            ErrorCode.PatchParseError,
            `${label}: line ${marker + 1} of the diff: ${shown} is a patch file marker; this diff may only change ${path}. Send each file's change as its own operation; to keep such a line as unchanged text, prefix it with a space.`,
            marker + 1,
          );
        }
        return { kind: 'update', path, chunks: [], v4aDiff: value.diff, ...move, ...at };
      } else if (Array.isArray(value.chunks) && value.chunks.every(isChunk)) chunks = numbered(value.chunks);
      else return refuse(ErrorCode.InvalidArguments, `${label}: give the chunks or a diff (string).`);
      if (chunks.length === 0 && moveTo === undefined)
        return refuse(ErrorCode.PatchParseError, `${label}: there is nothing to change; send the lines to change or a new name.`);
      return { kind: 'update', path, chunks, ...move, ...at };
    }
    case 'replace':
      if (typeof value.oldText !== 'string' || typeof value.newText !== 'string')
        return refuse(ErrorCode.InvalidArguments, 'a replace operation needs oldText and newText (strings).');
      if (value.at !== undefined && !(Number.isInteger(value.at) && (value.at as number) >= 0))
        return refuse(ErrorCode.InvalidArguments, 'the at of a replace operation must be an offset (integer, 0 or more).');
      return {
        kind: 'replace',
        path,
        oldText: value.oldText,
        newText: value.newText,
        ...(value.at === undefined ? {} : { at: value.at as number }),
        ...at,
      };
    case 'insert':
      if (!Number.isInteger(value.afterLine) || typeof value.text !== 'string')
        return refuse(ErrorCode.InvalidArguments, 'an insert operation needs afterLine (integer) and text (string).');
      return { kind: 'insert', path, afterLine: value.afterLine as number, text: value.text, ...at };
    default:
      return refuse(
        ErrorCode.InvalidArguments,
        `unknown file operation kind ${JSON.stringify(value.kind)}; use add, delete, update, replace or insert.`,
      );
  }
}

/** Checks operations given as data and turns diffs into chunks; any refusal refuses them all. */
export function checkFileOperations(input: unknown, phrases: EditPhrases): FileOperationsCheck {
  if (!Array.isArray(input) || input.length === 0) return refuse(ErrorCode.InvalidArguments, 'give at least one file operation.');
  const operations: PatchOperation[] = [];
  for (const value of input) {
    const checked = checkOne(value, phrases);
    if ('ok' in checked) return checked;
    operations.push(checked);
  }
  return { ok: true, operations };
}
