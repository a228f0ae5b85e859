import { DocumentLines } from './document-lines.js';

/** A line ending as found in a file; `''` only for a last line without a final newline. */
export type LineEnding = '' | '\n' | '\r\n';

/** One line of a text file and the ending that follows it. */
export interface TextLine {
  text: string;
  eol: LineEnding;
}

/**
 * A decoded UTF-8 text file: its text and what must be preserved when it is written back. Lines are an offset table
 * over the text, made on first use; `bytes`, when known, are the document's exact encoding, so an unchanged range
 * can be copied rather than encoded again.
 */
export class TextDocument {
  private table?: DocumentLines;
  private majority?: '\n' | '\r\n';

  constructor(
    readonly bom: boolean,
    /** The text without its BOM. */
    readonly text: string,
    majorityEol?: '\n' | '\r\n',
    readonly bytes?: Uint8Array,
  ) {
    this.majority = majorityEol;
  }

  get lines(): DocumentLines {
    return (this.table ??= new DocumentLines(this.text));
  }

  /** The ending new lines take: the file's majority (LF on a tie or when the file has none). */
  get majorityEol(): '\n' | '\r\n' {
    if (this.majority === undefined) {
      const lines = this.lines;
      const newlines = lines.length === 0 ? 0 : lines.length - (lines.eolAt(lines.length - 1) === '' ? 1 : 0);
      let crlf = 0;
      for (let at = this.text.indexOf('\r\n'); at >= 0; at = this.text.indexOf('\r\n', at + 2)) crlf++;
      this.majority = crlf > newlines - crlf ? '\r\n' : '\n';
    }
    return this.majority;
  }
}

/** The outcome of decoding bytes as UTF-8. */
export type DecodeResult = { ok: true; document: TextDocument } | { ok: false; message: string };

const BOM = '\uFEFF';
const encoder = new TextEncoder();

/** Splits text into lines, keeping each line's ending. */
export function splitLines(text: string): TextLine[] {
  return new DocumentLines(text).slice();
}

/** A document made of lines (each with its own ending). */
export function documentOfLines(bom: boolean, lines: readonly TextLine[], majorityEol: '\n' | '\r\n'): TextDocument {
  return new TextDocument(bom, joinLines(lines), majorityEol);
}

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

/** Encodes a document back to bytes, restoring its BOM. */
export function encodeDocument(document: TextDocument): Uint8Array {
  return document.bytes ?? encodeText((document.bom ? BOM : '') + document.text);
}

/** True when both hold the same bytes (compared natively where Buffer exists). */
export function sameBytes(a: Uint8Array | undefined, b: Uint8Array | undefined): boolean {
  if (a === b) return true;
  if (!a || !b || a.length !== b.length) return false;
  const buffer = bufferOf(a);
  if (buffer) return buffer.equals(b);
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
