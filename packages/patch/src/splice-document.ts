import type { LineList, TextLines } from './document-lines.js';
import { encodeText, TextDocument, type TextLine } from './text-document.js';

/** A run of the new document: old lines `[from, to)` kept as they are, or new lines. */
export type SplicePiece = { from: number; to: number } | { lines: TextLine[] };

const BOM_BYTES = 3;

/**
 * The new lines as a view over the old document and the pieces, so the lines around an edit can be read without
 * splitting the new text. A kept line that no longer ends the file takes `eol`.
 */
class SplicedLines implements LineList {
  readonly length: number;
  /** New index of each piece's first line. */
  private readonly firsts: number[] = [];

  constructor(
    private readonly old: TextLines,
    private readonly pieces: readonly SplicePiece[],
    private readonly eol: '\n' | '\r\n',
  ) {
    let length = 0;
    for (const piece of pieces) {
      this.firsts.push(length);
      length += 'lines' in piece ? piece.lines.length : piece.to - piece.from;
    }
    this.length = length;
  }

  at(index: number): TextLine | undefined {
    if (index < 0 || index >= this.length) return undefined;
    let low = 0;
    let high = this.pieces.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.firsts[middle] <= index) low = middle;
      else high = middle - 1;
    }
    const piece = this.pieces[low];
    const offset = index - this.firsts[low];
    if ('lines' in piece) return piece.lines[offset];
    const line = this.old.at(piece.from + offset)!;
    return line.eol === '' && index < this.length - 1 ? { text: line.text, eol: this.eol } : line;
  }
}

/** Maps character offsets of a document's text to byte offsets of its encoding, moving forward. */
function byteOffsets(document: TextDocument, bytes: Uint8Array): (offset: number) => number {
  const bom = document.bom ? BOM_BYTES : 0;
  if (document.lines.offsetsInBytes) return (offset) => offset + bom;
  // Every character is one byte only when the lengths agree (any other character takes more bytes than code units).
  if (bytes.length === document.text.length + bom) return (offset) => offset + bom;
  let charAt = 0;
  let byteAt = bom;
  return (offset) => {
    if (offset < charAt) {
      charAt = 0;
      byteAt = bom;
    }
    byteAt += Buffer.byteLength(document.text.slice(charAt, offset), 'utf8');
    charAt = offset;
    return byteAt;
  };
}

/**
 * The document made of `pieces`: its text joined from ranges of the old text and the new lines, and, where the old
 * document's bytes are known, its bytes copied from the old bytes for every kept range, so only new lines are
 * encoded. A kept last line without an ending takes `eol` when lines follow it.
 */
export function spliceDocument(
  document: TextDocument,
  pieces: readonly SplicePiece[],
  eol: '\n' | '\r\n',
): { document: TextDocument; lines: LineList } {
  const old = document.lines;
  const unterminated = old.length > 0 && old.eolAt(old.length - 1) === '';
  const parts: (string | [number, number])[] = [];
  pieces.forEach((piece, index) => {
    if ('lines' in piece) {
      let added = '';
      for (const line of piece.lines) added += line.text + line.eol;
      parts.push(added);
      return;
    }
    parts.push([old.startOf(piece.from), old.startOf(piece.to)]);
    if (unterminated && piece.to === old.length && index < pieces.length - 1) parts.push(eol);
  });
  const source = typeof Buffer === 'undefined' ? undefined : document.bytes;
  if (source) {
    // The new bytes are the old bytes of every kept range and the new lines encoded; the text follows from them.
    const byteAt = byteOffsets(document, source);
    const chunks: Uint8Array[] = document.bom ? [source.subarray(0, BOM_BYTES)] : [];
    for (const part of parts) chunks.push(typeof part === 'string' ? encodeText(part) : source.subarray(byteAt(part[0]), byteAt(part[1])));
    // The pieces stay pieces: a file of many MiB changed in one line is written without a copy of it in memory.
    return { document: new TextDocument(document.bom, undefined, eol, chunks), lines: new SplicedLines(old, pieces, eol) };
  }
  let text = '';
  for (const part of parts) text += typeof part === 'string' ? part : document.text.slice(part[0], part[1]);
  return { document: new TextDocument(document.bom, text, eol), lines: new SplicedLines(old, pieces, eol) };
}
