/** A line ending as found in a file; `''` only for a last line without a final newline. */
export type LineEnding = '' | '\n' | '\r\n';

/** One line of a text file and the ending that follows it. */
export interface TextLine {
  text: string;
  eol: LineEnding;
}

/** A decoded UTF-8 text file, line by line, with what must be preserved when it is written back. */
export interface TextDocument {
  bom: boolean;
  lines: TextLine[];
  /** The ending new lines take: the file's majority (LF on a tie or when the file has none). */
  majorityEol: '\n' | '\r\n';
}

/** The outcome of decoding bytes as UTF-8. */
export type DecodeResult = { ok: true; document: TextDocument } | { ok: false; message: string };

const BOM = '\uFEFF';
const encoder = new TextEncoder();

/** Splits text into lines, keeping each line's ending. */
export function splitLines(text: string): TextLine[] {
  const lines: TextLine[] = [];
  let start = 0;
  for (;;) {
    const cut = text.indexOf('\n', start);
    if (cut < 0) {
      if (start < text.length) lines.push({ text: text.slice(start), eol: '' });
      return lines;
    }
    if (cut > start && text.charCodeAt(cut - 1) === 13) lines.push({ text: text.slice(start, cut - 1), eol: '\r\n' });
    else lines.push({ text: text.slice(start, cut), eol: '\n' });
    start = cut + 1;
  }
}

/** The ending most lines of `lines` use (LF on a tie). */
export function majorityEnding(lines: readonly TextLine[]): '\n' | '\r\n' {
  let crlf = 0;
  let lf = 0;
  for (const line of lines) {
    if (line.eol === '\r\n') crlf++;
    else if (line.eol === '\n') lf++;
  }
  return crlf > lf ? '\r\n' : '\n';
}

/** Decodes file bytes as strict UTF-8; other encodings are refused with a message naming the first bad byte. */
export function decodeText(bytes: Uint8Array): DecodeResult {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return {
      ok: false,
      message: `it is not valid UTF-8 text (first invalid byte near offset ${Math.min(firstInvalidOffset(bytes), Math.max(0, bytes.length - 1))})`,
    };
  }
  const bom = text.startsWith(BOM);
  const lines = splitLines(bom ? text.slice(1) : text);
  return { ok: true, document: { bom, lines, majorityEol: majorityEnding(lines) } };
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
export function joinLines(lines: readonly TextLine[]): string {
  let text = '';
  for (const line of lines) text += line.text + line.eol;
  return text;
}

/** Encodes a document back to bytes, restoring its BOM. */
export function encodeDocument(document: TextDocument): Uint8Array {
  return encoder.encode((document.bom ? BOM : '') + joinLines(document.lines));
}
