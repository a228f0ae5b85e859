import { fileBytesLength, isPieces, joinFileBytes, type FileBytes } from '@toolhost/core';
import { ByteLines, DocumentLines, type TextLines } from './document-lines.js';

/** A line ending as found in a file; `''` only for a last line without a final newline. */
export type LineEnding = '' | '\n' | '\r\n';

/** One line of a text file and the ending that follows it. */
export interface TextLine {
  text: string;
  eol: LineEnding;
}

/**
 * A decoded UTF-8 text file: its text and what must be preserved when it is written back. Lines are an offset table
 * over the text, made on first use; `content`, when known, is the document's exact encoding (whole, or as pieces an
 * edit made of the old file's ranges and its new lines), so an unchanged range can be copied rather than encoded
 * again and a new file written without joining its pieces. A document made from bytes alone (valid UTF-8) keeps its
 * lines as offsets into the bytes and decodes its whole text only if asked for it.
 */
export class TextDocument {
  private table?: TextLines;
  private majority?: '\n' | '\r\n';
  private decoded?: string;
  private whole?: Uint8Array;

  constructor(
    readonly bom: boolean,
    /** The text without its BOM; undefined when `content` holds it (then decoded on first use). */
    text: string | undefined,
    majorityEol?: '\n' | '\r\n',
    /** The exact encoding, BOM included, whole or as pieces. */
    readonly content?: FileBytes,
  ) {
    if (text === undefined && content === undefined) throw new TypeError('a document needs its text or its bytes');
    this.decoded = text;
    this.majority = majorityEol;
  }

  /** The exact encoding in one array (pieces joined on first use); undefined when only the text is known. */
  get bytes(): Uint8Array | undefined {
    if (this.content === undefined) return undefined;
    return (this.whole ??= joinFileBytes(this.content));
  }

  /** The text without its BOM. */
  get text(): string {
    return (this.decoded ??= bufferOf(this.bytes!)!.toString('utf8', this.bom ? BOM_BYTES : 0));
  }

  get lines(): TextLines {
    this.table ??=
      this.decoded === undefined && this.bytes !== undefined && typeof Buffer !== 'undefined'
        ? new ByteLines(this.bytes, this.bom ? BOM_BYTES : 0)
        : new DocumentLines(this.text);
    return this.table;
  }

  /** The ending new lines take: the file's majority (LF on a tie or when the file has none). */
  get majorityEol(): '\n' | '\r\n' {
    if (this.majority === undefined) {
      const lines = this.lines;
      const newlines = lines.length === 0 ? 0 : lines.length - (lines.eolAt(lines.length - 1) === '' ? 1 : 0);
      const crlf = lines.crlfCount();
      this.majority = crlf > newlines - crlf ? '\r\n' : '\n';
    }
    return this.majority;
  }
}

/** The outcome of decoding bytes as UTF-8. */
export type DecodeResult = { ok: true; document: TextDocument } | { ok: false; message: string };

const BOM = '\uFEFF';
const BOM_BYTES = 3;
const encoder = new TextEncoder();

/** Splits text into lines, keeping each line's ending. */
export function splitLines(text: string): TextLine[] {
  return new DocumentLines(text).slice();
}

/** A document made of lines (each with its own ending). */
export function documentOfLines(bom: boolean, lines: readonly TextLine[], majorityEol: '\n' | '\r\n'): TextDocument {
  return new TextDocument(bom, joinLines(lines), majorityEol);
}

/** Node's UTF-8 validator (no string made), when this runs on Node. */
const isUtf8 = (
  (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.('node:buffer') as
    { isUtf8?: (bytes: Uint8Array) => boolean } | undefined
)?.isUtf8;

/** A view of `bytes` as a Buffer (no copy), where Buffer exists. */
function bufferOf(bytes: Uint8Array): Buffer | undefined {
  return typeof Buffer === 'undefined' ? undefined : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** A Buffer's bytes as a plain Uint8Array view (no copy). */
export function plainBytes(buffer: Uint8Array): Uint8Array {
  return buffer.constructor === Uint8Array ? buffer : new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}

/** Text as UTF-8 bytes (a lone surrogate as U+FFFD, as TextEncoder writes it). */
export function encodeText(text: string): Uint8Array {
  return typeof Buffer === 'undefined' ? encoder.encode(text) : plainBytes(Buffer.from(text, 'utf8'));
}

/** Decodes file bytes as strict UTF-8; other encodings are refused with a message naming the first bad byte. */
export function decodeText(bytes: Uint8Array): DecodeResult {
  // Valid UTF-8 (checked natively where Node gives `isUtf8`) stays bytes: lines and searches work on them.
  if (typeof Buffer !== 'undefined' && isUtf8?.(bytes)) {
    const bom = bytes.length >= BOM_BYTES && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
    return { ok: true, document: new TextDocument(bom, undefined, undefined, bytes) };
  }
  // The fast decoder writes U+FFFD for a bad sequence; only then is the strict decoder asked whether the file has one.
  let text = bufferOf(bytes)?.toString('utf8');
  if (text === undefined || text.includes('\uFFFD')) {
    try {
      text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
    } catch {
      return {
        ok: false,
        message: `it is not valid UTF-8 text (first invalid byte near offset ${Math.min(firstInvalidOffset(bytes), Math.max(0, bytes.length - 1))})`,
      };
    }
  }
  const bom = text.startsWith(BOM);
  return { ok: true, document: new TextDocument(bom, bom ? text.slice(1) : text, undefined, bytes) };
}

function firstInvalidOffset(bytes: Uint8Array): number {
  let low = 0;
  let high = bytes.length;
  // Binary search the longest valid prefix (a cut inside a sequence only fails at the end, which `stream` allows).
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, middle), { stream: true });
      low = middle;
    } catch {
      high = middle - 1;
    }
  }
  return low;
}

/** Joins lines (each with its own ending) back into text. */
function joinLines(lines: readonly TextLine[]): string {
  let text = '';
  for (const line of lines) text += line.text + line.eol;
  return text;
}

/** Encodes a document back to bytes, restoring its BOM; a document made of pieces stays in pieces. */
export function encodeDocument(document: TextDocument): FileBytes {
  return document.content ?? encodeText((document.bom ? BOM : '') + document.text);
}

/** True when both hold the same bytes, whole or in pieces (compared natively where Buffer exists). */
export function sameBytes(a: FileBytes | undefined, b: FileBytes | undefined): boolean {
  if (a === b) return true;
  if (!a || !b || fileBytesLength(a) !== fileBytesLength(b)) return false;
  if (isPieces(a) && isPieces(b)) return sameWholeBytes(joinFileBytes(a), joinFileBytes(b));
  // Pieces are compared with the ranges of the whole they stand for, so comparing joins nothing.
  const [pieces, whole] = isPieces(a) ? [a, b as Uint8Array] : isPieces(b) ? [b, a] : [[a], b];
  let at = 0;
  for (const piece of pieces) {
    if (!sameWholeBytes(piece, whole.subarray(at, at + piece.length))) return false;
    at += piece.length;
  }
  return true;
}

function sameWholeBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  const buffer = bufferOf(a);
  if (buffer) return buffer.equals(b);
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
