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
 * The lines of a text as a table of offsets into it, so a large file costs one number a line, not a string: line `i`
 * spans `text[starts[i], starts[i + 1])`, its ending included. Line strings are made only for the lines asked for.
 */
export class DocumentLines implements TextLines {
  readonly length: number;
  readonly offsetsInBytes = false;
  /** Start offset of each line, then the text's length. */
  private readonly starts: Int32Array;

  constructor(readonly text: string) {
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
    for (let cut = text.indexOf('\n'); cut >= 0; cut = text.indexOf('\n', cut + 1)) push(cut + 1);
    // A last line without a line ending is a line; an empty tail after the final newline is not.
    if (starts[count - 1] < text.length) push(text.length);
    this.starts = starts.subarray(0, count);
    this.length = count - 1;
  }

  /** Offset of the first character of line `index` (the text's length for `index === length`). */
  startOf(index: number): number {
    return this.starts[index];
  }

  /** Offset just past the end of line `index`'s text (before its ending). */
  private textEnd(index: number): number {
    let end = this.starts[index + 1];
    const start = this.starts[index];
    if (end > start && this.text.charCodeAt(end - 1) === 10) {
      end--;
      if (end > start && this.text.charCodeAt(end - 1) === 13) end--;
    }
    return end;
  }

  /** The text of line `index`, without its ending. */
  textAt(index: number): string {
    return this.text.slice(this.starts[index], this.textEnd(index));
  }

  /** The ending of line `index`. */
  eolAt(index: number): LineEnding {
    const gap = this.starts[index + 1] - this.textEnd(index);
    return gap === 0 ? '' : gap === 1 ? '\n' : '\r\n';
  }

  at(index: number): TextLine | undefined {
    if (index < 0 || index >= this.length) return undefined;
    return { text: this.textAt(index), eol: this.eolAt(index) };
  }

  /** Lines `[from, to)` as line objects. */
  slice(from = 0, to = this.length): TextLine[] {
    const lines: TextLine[] = [];
    for (let index = Math.max(0, from); index < Math.min(to, this.length); index++) lines.push(this.at(index)!);
    return lines;
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

  /** The line holding offset `offset`. */
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
   * The lines at or after `from` that are exactly `text`, in order, found by searching the text itself (no line
   * strings are made); the caller stops the iteration once it has what it wants.
   */
  *linesEqualTo(text: string, from: number): Generator<number> {
    if (text.includes('\n') || from >= this.length) return;
    if (text === '') {
      for (let index = from; index < this.length; index++) if (this.textEnd(index) === this.starts[index]) yield index;
      return;
    }
    const whole = this.text;
    for (let hit = whole.indexOf(text, this.starts[from]); hit >= 0; hit = whole.indexOf(text, hit + 1)) {
      if (hit > 0 && whole.charCodeAt(hit - 1) !== 10) continue;
      const line = this.lineAt(hit);
      if (this.equals(line, text)) yield line;
    }
  }
}
