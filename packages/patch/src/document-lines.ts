import type { LineEnding, TextLine } from './text-document.js';

/** Read access to a sequence of lines by index: an array of lines, or a view over a text. */
export interface LineList {
  readonly length: number;
  at(index: number): TextLine | undefined;
}

/** Lines a matcher searches: exact comparisons and searches in place, line strings on request. */
export interface SearchableLines extends LineList {
  textAt(index: number): string;
  slice(from?: number, to?: number): TextLine[];
  /** True when line `index` is exactly `text`. */
  equals(index: number, text: string): boolean;
  /** The lines at or after `from` that are exactly `text`, in order. */
  linesEqualTo(text: string, from: number): Iterable<number>;
}

/** An array of lines, searched line by line. */
export class LineArray implements SearchableLines {
  constructor(private readonly lines: readonly TextLine[]) {}

  get length(): number {
    return this.lines.length;
  }

  at(index: number): TextLine | undefined {
    return this.lines[index];
  }

  textAt(index: number): string {
    return this.lines[index].text;
  }

  slice(from?: number, to?: number): TextLine[] {
    return this.lines.slice(from, to);
  }

  equals(index: number, text: string): boolean {
    return this.lines[index].text === text;
  }

  *linesEqualTo(text: string, from: number): Generator<number> {
    for (let index = from; index < this.lines.length; index++) if (this.lines[index].text === text) yield index;
  }
}

/** The lines of a whole document: a {@link SearchableLines} with the offsets of its lines in the text or its bytes. */
export interface TextLines extends SearchableLines {
  /** True when offsets count bytes of the UTF-8 content (after a BOM); false: UTF-16 code units of the text. */
  readonly offsetsInBytes: boolean;
  /** Offset of the first character of line `index` (the content's length for `index === length`). */
  startOf(index: number): number;
  /** The ending of line `index`. */
  eolAt(index: number): LineEnding;
  /** The line holding offset `offset`. */
  lineAt(offset: number): number;
  /** How many CRLF endings the document has. */
  crlfCount(): number;
}

/**
 * Lines as a table of offsets into a content (a text or its bytes), so a large file costs one number a line, not a
 * string: line `i` spans `[starts[i], starts[i + 1])`, its ending included. Line strings are made only for the lines
 * asked for; a subclass says how to read a unit of the content and how to search it.
 */
abstract class OffsetLines implements TextLines {
  readonly length: number;
  abstract readonly offsetsInBytes: boolean;
  /** Start offset of each line, then the content's length. */
  protected readonly starts: Int32Array;

  /** `size` is the content's length; `newlineAfter(offset)` the offset of the next `\n` at or after it, or -1. */
  constructor(size: number, newlineAfter: (offset: number) => number) {
    // Typed and grown by doubling: one number a line, no boxed array.
    let starts = new Int32Array(1024);
    let count = 1;
    const push = (offset: number) => {
      if (count === starts.length) {
        const grown = new Int32Array(count * 2);
        grown.set(starts);
        starts = grown;
      }
      starts[count++] = offset;
    };
    for (let cut = newlineAfter(0); cut >= 0; cut = newlineAfter(cut + 1)) push(cut + 1);
    // A last line without a line ending is a line; an empty tail after the final newline is not.
    if (starts[count - 1] < size) push(size);
    this.starts = starts.subarray(0, count);
    this.length = count - 1;
  }

  /** The unit (character code or byte) at `offset`: `\n` and `\r` read the same in both. */
  protected abstract unitAt(offset: number): number;
  abstract textAt(index: number): string;
  abstract equals(index: number, text: string): boolean;
  abstract crlfCount(): number;
  /** A search for `text` (one line, not empty) in the content: the offset of its next occurrence at or after `offset`. */
  protected abstract searchFor(text: string): (offset: number) => number;

  startOf(index: number): number {
    return this.starts[index];
  }

  /** Offset just past the end of line `index`'s text (before its ending). */
  protected textEnd(index: number): number {
    let end = this.starts[index + 1];
    const start = this.starts[index];
    if (end > start && this.unitAt(end - 1) === 10) {
      end--;
      if (end > start && this.unitAt(end - 1) === 13) end--;
    }
    return end;
  }

  eolAt(index: number): LineEnding {
    const gap = this.starts[index + 1] - this.textEnd(index);
    return gap === 0 ? '' : gap === 1 ? '\n' : '\r\n';
  }

  at(index: number): TextLine | undefined {
    if (index < 0 || index >= this.length) return undefined;
    return { text: this.textAt(index), eol: this.eolAt(index) };
  }

  slice(from = 0, to = this.length): TextLine[] {
    const lines: TextLine[] = [];
    for (let index = Math.max(0, from); index < Math.min(to, this.length); index++) lines.push(this.at(index)!);
    return lines;
  }

  lineAt(offset: number): number {
    let low = 0;
    let high = this.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.starts[middle] <= offset) low = middle;
      else high = middle - 1;
    }
    return low;
  }

  /**
   * The lines at or after `from` that are exactly `text`, in order, found by searching the content itself (no line
   * strings are made but for the hits); the caller stops the iteration once it has what it wants.
   */
  *linesEqualTo(text: string, from: number): Generator<number> {
    if (text.includes('\n') || from >= this.length) return;
    if (text === '') {
      for (let index = from; index < this.length; index++) if (this.textEnd(index) === this.starts[index]) yield index;
      return;
    }
    const next = this.searchFor(text);
    for (let hit = next(this.starts[from]); hit >= 0; hit = next(hit + 1)) {
      if (hit > 0 && this.unitAt(hit - 1) !== 10) continue;
      const line = this.lineAt(hit);
      if (this.equals(line, text)) yield line;
    }
  }
}

/** The lines of a text as a table of offsets into it (UTF-16 code units). */
export class DocumentLines extends OffsetLines {
  readonly offsetsInBytes = false;

  constructor(readonly text: string) {
    super(text.length, (offset) => text.indexOf('\n', offset));
  }

  protected unitAt(offset: number): number {
    return this.text.charCodeAt(offset);
  }

  textAt(index: number): string {
    return this.text.slice(this.starts[index], this.textEnd(index));
  }

  /** True when line `index` is exactly `text`, compared in place. */
  equals(index: number, text: string): boolean {
    const start = this.starts[index];
    return this.textEnd(index) - start === text.length && this.text.startsWith(text, start);
  }

  crlfCount(): number {
    let count = 0;
    for (let at = this.text.indexOf('\r\n'); at >= 0; at = this.text.indexOf('\r\n', at + 2)) count++;
    return count;
  }

  protected searchFor(text: string): (offset: number) => number {
    return (offset) => this.text.indexOf(text, offset);
  }
}

/**
 * The lines of a valid UTF-8 file as a table of byte offsets into its bytes, so it is never decoded whole: a line's
 * text is decoded only when asked for, and searches run on the bytes. Offsets count bytes of the content after the BOM.
 */
export class ByteLines extends OffsetLines {
  readonly offsetsInBytes = true;
  /** The content after the BOM. */
  private readonly content: Buffer;

  /** `bytes` must be valid UTF-8; `skip` bytes (a BOM) before the content are left out. */
  constructor(bytes: Uint8Array, skip: number) {
    const content = Buffer.from(bytes.buffer, bytes.byteOffset + skip, bytes.byteLength - skip);
    super(content.length, (offset) => content.indexOf(10, offset));
    this.content = content;
  }

  protected unitAt(offset: number): number {
    return this.content[offset]!;
  }

  textAt(index: number): string {
    return this.content.toString('utf8', this.starts[index], this.textEnd(index));
  }

  equals(index: number, text: string): boolean {
    const start = this.starts[index];
    const end = this.textEnd(index);
    // A line of n bytes holds between n / 3 and n UTF-16 code units.
    if (text.length > end - start || text.length * 3 < end - start) return false;
    return this.textAt(index) === text;
  }

  crlfCount(): number {
    let count = 0;
    for (let at = this.content.indexOf('\r\n'); at >= 0; at = this.content.indexOf('\r\n', at + 2)) count++;
    return count;
  }

  protected searchFor(text: string): (offset: number) => number {
    const needle = Buffer.from(text, 'utf8');
    return (offset) => this.content.indexOf(needle, offset);
  }
}
