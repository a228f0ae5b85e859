import { ErrorCode } from '@toolhost/core';
import type { EditPhrases } from './edit-phrases.js';
import { documentOfLines, TextDocument } from './text-document.js';

/** A text edit's new document, or why it cannot be made. */
export type TextEditResult =
  | { ok: true; document: TextDocument }
  | {
      ok: false;
      code: typeof ErrorCode.PatchContextNotFound | typeof ErrorCode.PatchAmbiguous | typeof ErrorCode.InvalidArguments;
      message: string;
    };

function occurrences(haystack: string, needle: string): number[] {
  const found: number[] = [];
  for (let index = haystack.indexOf(needle); index >= 0; index = haystack.indexOf(needle, index + 1)) found.push(index);
  return found;
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let index = text.indexOf('\n'); index >= 0 && index < offset; index = text.indexOf('\n', index + 1)) line += 1;
  return line;
}

/** The text with every bare LF made CRLF (a CRLF stays as it is). */
function toCrlf(text: string): string {
  return text.replace(/\r?\n/g, '\r\n');
}

function withText(document: TextDocument, text: string): TextDocument {
  return new TextDocument(document.bom, text, document.majorityEol);
}

/**
 * Replaces the one occurrence of `oldText` in the document, changing no other byte. In a file whose lines mostly end
 * in CRLF, text sent with LF endings is matched and written with CRLF, as the model cannot see the difference.
 */
export function replaceOnce(document: TextDocument, oldText: string, newText: string, path: string, phrases: EditPhrases): TextEditResult {
  const named = phrases.vocabulary.edits === 'text_editor' ? 'old_str' : 'the text to replace';
  if (oldText === '')
    return {
      ok: false,
      code: ErrorCode.InvalidArguments,
      message: `No replacement was performed: ${named} is empty; give the exact text to replace.`,
    };
  const text = document.text;
  let search = oldText;
  let replacement = newText;
  let found = occurrences(text, search);
  if (found.length === 0 && document.majorityEol === '\r\n' && /(?<!\r)\n/.test(oldText)) {
    search = toCrlf(oldText);
    found = occurrences(text, search);
  }
  // The model cannot see CRLF: the line breaks it writes into a CRLF file take the file's ending.
  if (document.majorityEol === '\r\n') replacement = toCrlf(newText);
  if (found.length === 0) {
    return {
      ok: false,
      code: ErrorCode.PatchContextNotFound,
      message: `No replacement was performed: ${named} did not appear verbatim in ${path}. View the file and copy the text exactly, whitespace included.`,
    };
  }
  if (found.length > 1) {
    const lines = found.map((offset) => lineAt(text, offset));
    return {
      ok: false,
      code: ErrorCode.PatchAmbiguous,
      message: `No replacement was performed: ${named} appears ${found.length} times in ${path}, at lines ${lines.join(', ')}. Include more surrounding lines so it matches exactly once.`,
    };
  }
  const offset = found[0];
  return { ok: true, document: withText(document, text.slice(0, offset) + replacement + text.slice(offset + search.length)) };
}

/**
 * Replaces the `oldText` that stands at offset `at` of the document's text with `newText`, exactly as given: a caller
 * that located the text itself (against a read of the file) gets it changed only if the file still holds it there.
 */
export function replaceAt(
  document: TextDocument,
  at: number,
  oldText: string,
  newText: string,
  path: string,
  phrases: EditPhrases,
): TextEditResult {
  const text = document.text;
  if (at > text.length || text.slice(at, at + oldText.length) !== oldText) {
    return {
      ok: false,
      code: ErrorCode.PatchContextNotFound,
      message: `No replacement was performed: ${path} changed since it was read; view it again and ${phrases.resend}.`,
    };
  }
  return { ok: true, document: withText(document, text.slice(0, at) + newText + text.slice(at + oldText.length)) };
}

/**
 * Inserts `text` as whole lines after line `afterLine` (0: before the first line), each ending as the file's lines
 * do. A final line break in `text` ends its last line rather than adding an empty one; at the end of a file without a
 * final line ending, the file keeps having none.
 */
export function insertLines(document: TextDocument, afterLine: number, text: string, phrases: EditPhrases): TextEditResult {
  const count = document.lines.length;
  if (!Number.isInteger(afterLine) || afterLine < 0 || afterLine > count) {
    const named = phrases.vocabulary.edits === 'text_editor' ? 'insert_line' : 'the line to insert after';
    return {
      ok: false,
      code: ErrorCode.InvalidArguments,
      message: `${named} ${afterLine} is outside the file, which has ${count} lines: use 0..${count}.`,
    };
  }
  const eol = document.majorityEol;
  const pieces = text.replace(/\r\n/g, '\n').split('\n');
  if (pieces.length > 1 && pieces[pieces.length - 1] === '') pieces.pop();
  const lines = document.lines.slice();
  const atUnterminatedEnd = afterLine === count && count > 0 && lines[count - 1].eol === '';
  if (atUnterminatedEnd) lines[count - 1].eol = eol;
  const inserted = pieces.map((piece, index) => ({
    text: piece,
    eol: atUnterminatedEnd && index === pieces.length - 1 ? ('' as const) : eol,
  }));
  lines.splice(afterLine, 0, ...inserted);
  return { ok: true, document: documentOfLines(document.bom, lines, eol) };
}
