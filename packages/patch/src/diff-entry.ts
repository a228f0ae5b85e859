import { diffArrays, formatPatch, FILE_HEADERS_ONLY, type StructuredPatch, type StructuredPatchHunk } from 'diff';
import type { LineList } from './document-lines.js';
import type { TextLine } from './text-document.js';

/** What a planned file change did. */
export type DiffOperation = 'created' | 'updated' | 'deleted' | 'moved';

/** One entry of `data.diff`: a bounded unified diff of one planned file. */
export interface DiffEntry {
  path: string;
  operation: DiffOperation;
  /** Unified diff with 3 lines of context, bounded to {@link MAX_DIFF_LINES} lines. */
  content: string;
  additions: number;
  deletions: number;
  truncated: boolean;
  /** True when the file's bytes do not change. */
  is_empty: boolean;
  /** The source path of a move. */
  old_path?: string;
}

/** A region of the old file replaced by a region of the new one; lines outside regions are equal. */
export interface EditRegion {
  oldStart: number;
  oldCount: number;
  newStart: number;
  newCount: number;
}

/** Diffs longer than this many lines keep their head and tail. */
export const MAX_DIFF_LINES = 160;
const HEAD_LINES = 96;
const TAIL_LINES = 32;
const CONTEXT = 3;
const NO_NEWLINE = '\\ No newline at end of file';

interface Segment {
  type: 'equal' | 'removed' | 'added';
  oldStart: number;
  newStart: number;
  count: number;
}

const keyOf = (line: TextLine) => (line.eol ? `${line.text}\n` : line.text);

function keysOf(lines: LineList, start: number, count: number): string[] {
  const keys: string[] = [];
  for (let index = start; index < Math.min(start + count, lines.length); index++) keys.push(keyOf(lines.at(index)!));
  return keys;
}

function segmentsOf(oldLines: LineList, newLines: LineList, regions: readonly EditRegion[]): Segment[] {
  const segments: Segment[] = [];
  const push = (segment: Segment) => {
    if (segment.count === 0) return;
    const last = segments[segments.length - 1];
    if (last && last.type === segment.type && last.type === 'equal') last.count += segment.count;
    else segments.push(segment);
  };
  let oldIndex = 0;
  let newIndex = 0;
  for (const region of regions) {
    push({ type: 'equal', oldStart: oldIndex, newStart: newIndex, count: region.oldStart - oldIndex });
    oldIndex = region.oldStart;
    newIndex = region.newStart;
    const before = keysOf(oldLines, region.oldStart, region.oldCount);
    const after = keysOf(newLines, region.newStart, region.newCount);
    for (const change of diffArrays(before, after)) {
      const count = change.count ?? change.value.length;
      if (change.added) {
        push({ type: 'added', oldStart: oldIndex, newStart: newIndex, count });
        newIndex += count;
      } else if (change.removed) {
        push({ type: 'removed', oldStart: oldIndex, newStart: newIndex, count });
        oldIndex += count;
      } else {
        push({ type: 'equal', oldStart: oldIndex, newStart: newIndex, count });
        oldIndex += count;
        newIndex += count;
      }
    }
  }
  push({ type: 'equal', oldStart: oldIndex, newStart: newIndex, count: oldLines.length - oldIndex });
  return segments;
}

function hunksOf(oldLines: LineList, newLines: LineList, segments: readonly Segment[]) {
  const hunks: StructuredPatchHunk[] = [];
  let additions = 0;
  let deletions = 0;
  let oldRangeStart = 0;
  let newRangeStart = 0;
  let current: string[] = [];
  let oldLine = 1;
  let newLine = 1;
  const emit = (prefix: string, line: TextLine) => {
    current.push(prefix + line.text);
    if (!line.eol) current.push(NO_NEWLINE);
  };
  const all = [...segments, { type: 'equal', oldStart: oldLines.length, newStart: newLines.length, count: 0 } as Segment];
  for (let i = 0; i < all.length; i++) {
    const segment = all[i];
    if (segment.type !== 'equal') {
      if (!oldRangeStart) {
        oldRangeStart = oldLine;
        newRangeStart = newLine;
        const previous = all[i - 1];
        if (previous && previous.type === 'equal') {
          const context = Math.min(CONTEXT, previous.count);
          for (let k = previous.count - context; k < previous.count; k++) emit(' ', oldLines.at(previous.oldStart + k)!);
          oldRangeStart -= context;
          newRangeStart -= context;
        }
      }
      if (segment.type === 'added') {
        for (let k = 0; k < segment.count; k++) emit('+', newLines.at(segment.newStart + k)!);
        newLine += segment.count;
        additions += segment.count;
      } else {
        for (let k = 0; k < segment.count; k++) emit('-', oldLines.at(segment.oldStart + k)!);
        oldLine += segment.count;
        deletions += segment.count;
      }
      continue;
    }
    if (oldRangeStart) {
      if (segment.count <= CONTEXT * 2 && i < all.length - 2) {
        for (let k = 0; k < segment.count; k++) emit(' ', oldLines.at(segment.oldStart + k)!);
      } else {
        const context = Math.min(segment.count, CONTEXT);
        for (let k = 0; k < context; k++) emit(' ', oldLines.at(segment.oldStart + k)!);
        hunks.push({
          oldStart: oldRangeStart,
          oldLines: oldLine - oldRangeStart + context,
          newStart: newRangeStart,
          newLines: newLine - newRangeStart + context,
          lines: current,
        });
        oldRangeStart = 0;
        newRangeStart = 0;
        current = [];
      }
    }
    oldLine += segment.count;
    newLine += segment.count;
  }
  return { hunks, additions, deletions };
}

/** Keeps the first 96 and last 32 lines of a diff longer than {@link MAX_DIFF_LINES} lines, with a marker between. */
export function boundDiff(content: string): { content: string; truncated: boolean } {
  const lines = content.endsWith('\n') ? content.slice(0, -1).split('\n') : content.split('\n');
  if (lines.length <= MAX_DIFF_LINES) return { content, truncated: false };
  const omitted = lines.length - HEAD_LINES - TAIL_LINES;
  const kept = [...lines.slice(0, HEAD_LINES), `... ${omitted} diff lines omitted ...`, ...lines.slice(lines.length - TAIL_LINES)];
  return { content: `${kept.join('\n')}\n`, truncated: true };
}

/** Options of {@link createDiffEntry}. */
export interface DiffEntryInput {
  path: string;
  operation: DiffOperation;
  oldPath?: string;
  oldLines: readonly TextLine[];
  newLines: readonly TextLine[];
  /** Replaced regions; omit to diff the whole files as one region. */
  regions?: readonly EditRegion[];
  /** True when the file's bytes do not change. */
  unchanged: boolean;
}

/**
 * Builds a `data.diff` entry. Only the replaced regions are diffed (with jsdiff), so a large file with many small
 * edits costs as much as its edits, not as a whole-file diff.
 */
export function createDiffEntry(input: DiffEntryInput): DiffEntry {
  return diffEntryOf(input);
}

/** {@link createDiffEntry} over any list of lines, such as an offset table over a file's text. */
export function diffEntryOf(input: Omit<DiffEntryInput, 'oldLines' | 'newLines'> & { oldLines: LineList; newLines: LineList }): DiffEntry {
  const regions = input.regions ?? [{ oldStart: 0, oldCount: input.oldLines.length, newStart: 0, newCount: input.newLines.length }];
  const segments = segmentsOf(input.oldLines, input.newLines, regions);
  const { hunks, additions, deletions } = hunksOf(input.oldLines, input.newLines, segments);
  const oldName = input.operation === 'created' ? '/dev/null' : `a/${input.oldPath ?? input.path}`;
  const newName = input.operation === 'deleted' ? '/dev/null' : `b/${input.path}`;
  const isEmpty = input.unchanged && input.operation !== 'moved';
  const structured: StructuredPatch = { oldFileName: oldName, newFileName: newName, oldHeader: undefined, newHeader: undefined, hunks };
  const full = isEmpty ? '' : formatPatch(structured, FILE_HEADERS_ONLY);
  const bounded = boundDiff(full);
  const entry: DiffEntry = {
    path: input.path,
    operation: input.operation,
    content: bounded.content,
    additions,
    deletions,
    truncated: bounded.truncated,
    is_empty: isEmpty,
  };
  if (input.oldPath !== undefined) entry.old_path = input.oldPath;
  return entry;
}

/** A `data.diff` entry for a file whose content is not text (only deletion allows that). */
export function binaryDiffEntry(path: string, operation: DiffOperation): DiffEntry {
  return { path, operation, content: `Binary file ${path} ${operation}\n`, additions: 0, deletions: 0, truncated: false, is_empty: false };
}
