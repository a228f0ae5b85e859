import { ErrorCode } from 'toolhost';
import { TAB_SIZE, expandTabs, lfText, lineIndexAt, occurrences, seenText, unitAt } from './expanded-text.js';
import { pythonList } from './text-editor-output.js';

/**
 * An edit planned on a read of the file: replace `oldText` at offset `at` of the raw text (BOM excluded) with
 * `newText`, giving `newRaw`; `firstLine` (0-based) and `addedBreaks` place the snippet the reference prints.
 */
export interface PlannedEdit {
  ok: true;
  at: number;
  oldText: string;
  newText: string;
  newRaw: string;
  firstLine: number;
  addedBreaks: number;
}

/** Why an edit cannot be made, in the reference editor's words. */
export interface RefusedEdit {
  ok: false;
  code: typeof ErrorCode.PatchContextNotFound | typeof ErrorCode.PatchAmbiguous | typeof ErrorCode.InvalidArguments;
  message: string;
}

/** The line ending most of the file's lines use (LF on a tie or without any), which new lines take. */
export function majorityEol(raw: string): '\n' | '\r\n' {
  const crlf = raw.split('\r\n').length - 1;
  const lf = raw.split('\n').length - 1 - crlf;
  return crlf > lf ? '\r\n' : '\n';
}

/** Whether the file indents with tabs: more lines start with a tab than with two spaces. */
export function indentsWithTabs(raw: string): boolean {
  let tabs = 0;
  let spaces = 0;
  for (const line of raw.split('\n')) {
    if (line.startsWith('\t')) tabs++;
    else if (line.startsWith('  ')) spaces++;
  }
  return tabs > spaces;
}

/** A line's leading blanks as tabs (one per 8 columns) and the remaining spaces, as a tab-indented file writes them. */
export function retabIndent(line: string): string {
  const lead = /^[ \t]*/.exec(line)![0];
  const width = expandTabs(lead).length;
  return '\t'.repeat(Math.floor(width / TAB_SIZE)) + ' '.repeat(width % TAB_SIZE) + line.slice(lead.length);
}

const isBlank = (text: string) => /^[ \t]*$/.test(text);

/** The raw rest of the line after `offset` (up to its line break). */
function restOfLine(raw: string, offset: number): string {
  const end = raw.indexOf('\n', offset);
  return raw.slice(offset, end < 0 ? raw.length : end).replace(/\r$/, '');
}

interface Located {
  rawStart: number;
  rawEnd: number;
  /** Columns of a tab the match starts inside that precede the match, kept as spaces. */
  spacesBefore: number;
  /** Columns of a tab the match ends inside that follow the match, kept as spaces. */
  spacesAfter: number;
  firstLine: number;
}

/** Maps a match [start, end) of the seen text back to the raw characters that make it. */
function locate(raw: string, expand: boolean, seen: string, start: number, end: number): Located {
  const first = unitAt(raw, expand, start);
  const last = unitAt(raw, expand, end - 1);
  return {
    rawStart: first.rawStart,
    rawEnd: last.rawEnd,
    spacesBefore: start - first.seenStart,
    spacesAfter: last.seenEnd - end,
    firstLine: lineIndexAt(seen, start),
  };
}

/** Distinct 1-based lines the occurrences start on (for a one-line old_str: the lines that hold it, as the reference lists them). */
function occurrenceLines(seen: string, starts: readonly number[]): number[] {
  const lines = new Set<number>();
  let line = 0;
  let scanned = 0;
  for (const start of starts) {
    // Starts are in order: count the line breaks since the previous one only.
    for (let index = seen.indexOf('\n', scanned); index >= 0 && index < start; index = seen.indexOf('\n', index + 1)) line++;
    scanned = start;
    lines.add(line + 1);
  }
  return [...lines];
}

/**
 * Plans `str_replace` as the reference editor matches it, without its losses: old_str is found in the file as the
 * reference shows it (CRLF as LF, tabs expanded), or else in the file's own characters (tabs as tabs), and must occur
 * once; the match is mapped back to the raw characters, and only they are replaced. new_str's line breaks take the
 * file's line ending; when the file (or the matched text, where old_str spelled its tabs as spaces) indents with tabs
 * and new_str has no tab, the leading blanks of new_str's lines that start a line are written as tabs.
 */
export function planStrReplace(raw: string, oldStr: string, newStr: string, shownPath: string): PlannedEdit | RefusedEdit {
  const oldLf = lfText(oldStr);
  const search = expandTabs(oldLf);
  let expand = true;
  let seen = seenText(raw, true);
  let starts = occurrences(seen, search);
  if (starts.length === 0 && oldLf !== search) {
    // The reference expands old_str's tabs from its own first column, so a tab after the start of a line never matches.
    expand = false;
    seen = seenText(raw, false);
    starts = occurrences(seen, oldLf);
  }
  if (starts.length === 0)
    return {
      ok: false,
      code: ErrorCode.PatchContextNotFound,
      message: `No replacement was performed, old_str \`${search}\` did not appear verbatim in ${shownPath}.`,
    };
  if (starts.length > 1)
    return {
      ok: false,
      code: ErrorCode.PatchAmbiguous,
      message: `No replacement was performed. Multiple occurrences of old_str \`${search}\` in lines ${pythonList(occurrenceLines(seen, starts))}. Please ensure it is unique`,
    };
  const length = expand ? search.length : oldLf.length;
  const found = locate(raw, expand, seen, starts[0], starts[0] + length);
  const newLf = lfText(newStr);
  const spelledTabsAsSpaces =
    raw.slice(found.rawStart, found.rawEnd).includes('\t') && lfText(raw.slice(found.rawStart, found.rawEnd)) !== oldLf;
  const retab = !newLf.includes('\t') && (spelledTabsAsSpaces || indentsWithTabs(raw));
  let lead = ' '.repeat(found.spacesBefore);
  const lineStart = raw.lastIndexOf('\n', found.rawStart - 1) + 1;
  if (retab && lineStart < found.rawStart && isBlank(raw.slice(lineStart, found.rawStart))) {
    // A match that starts in a line's indentation takes the whole indentation, so it is written again as a whole.
    lead = raw.slice(lineStart, found.rawStart) + lead;
    found.rawStart = lineStart;
  }
  const matched = raw.slice(found.rawStart, found.rawEnd);
  const pieces = (lead + newLf + ' '.repeat(found.spacesAfter)).split('\n');
  const startsLine = found.rawStart === lineStart;
  const after = restOfLine(raw, found.rawEnd);
  const written = pieces.map((piece, index) => {
    const lineStart = index > 0 || startsLine;
    const blank = isBlank(piece) && (index < pieces.length - 1 || after === '');
    return retab && lineStart && !blank ? retabIndent(piece) : piece;
  });
  const newText = written.join(majorityEol(raw));
  return {
    ok: true,
    at: found.rawStart,
    oldText: matched,
    newText,
    newRaw: raw.slice(0, found.rawStart) + newText + raw.slice(found.rawEnd),
    firstLine: found.firstLine,
    addedBreaks: newLf.split('\n').length - 1,
  };
}

/**
 * Plans `insert` as the reference editor does: the file is its lines split on LF (so a file ending in a line break
 * has an empty last line, and after it is a valid place), the text is split on LF (so a final line break adds an
 * empty line), and the lines go after line `insertLine`; the new line breaks take the file's line ending, and in a
 * file that indents with tabs, text without a tab has its leading blanks written as tabs.
 */
export function planInsert(raw: string, insertLine: unknown, text: string): PlannedEdit | RefusedEdit {
  const lineCount = raw.split('\n').length;
  if (!Number.isInteger(insertLine) || (insertLine as number) < 0 || (insertLine as number) > lineCount)
    return {
      ok: false,
      code: ErrorCode.InvalidArguments,
      message: `Invalid \`insert_line\` parameter: ${typeof insertLine === 'string' ? `'${insertLine}'` : String(insertLine)}. It should be within the range of lines of the file: ${pythonList([0, lineCount])}`,
    };
  const line = insertLine as number;
  const eol = majorityEol(raw);
  const textLf = lfText(text);
  const retab = !textLf.includes('\t') && indentsWithTabs(raw);
  const lines = textLf.split('\n').map((piece) => (retab && !isBlank(piece) ? retabIndent(piece) : piece));
  let at = raw.length;
  let newText = eol + lines.join(eol);
  if (line < lineCount) {
    at = 0;
    for (let passed = 0; passed < line; passed++) at = raw.indexOf('\n', at) + 1;
    newText = lines.join(eol) + eol;
  }
  return {
    ok: true,
    at,
    oldText: '',
    newText,
    newRaw: raw.slice(0, at) + newText + raw.slice(at),
    firstLine: line,
    addedBreaks: lines.length,
  };
}
