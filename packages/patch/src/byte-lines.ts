import type { LineEnding, TextLine } from './text-document.js';
import type { TextLines } from './document-lines.js';

/**
 * The lines of a UTF-8 file as a table of byte offsets into its bytes, so a large file is never decoded whole: line
 * `i` spans `bytes[starts[i], starts[i + 1])`, its ending included; a line's text is decoded only when asked for, and
 * searches run on the bytes. Offsets count bytes of the content after the BOM (`offsetsInBytes`).
 */
export class ByteLines implements TextLines {
  readonly length: number;
  readonly offsetsInBytes = true;
  /** The content after the BOM. */
  private readonly content: Buffer;
  /** Start offset of each line, then the content's length. */
  private readonly starts: Int32Array;

  /** `bytes` must be valid UTF-8; `skip` bytes (a BOM) before the content are left out. */
  constructor(bytes: Uint8Array, skip: number) {
    const content = Buffer.from(bytes.buffer, bytes.byteOffset + skip, bytes.byteLength - skip);
    this.content = content;
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
    for (let cut = content.indexOf(10); cut >= 0; cut = content.indexOf(10, cut + 1)) push(cut + 1);
    // A last line without a line ending is a line; an empty tail after the final newline is not.
    if (starts[count - 1] < content.length) push(content.length);
    this.starts = starts.subarray(0, count);
    this.length = count - 1;
  }

  startOf(index: number): number {
    return this.starts[index];
  }

  /** Offset just past the end of line `index`'s text (before its ending). */
  private textEnd(index: number): number {
    let end = this.starts[index + 1];
    const start = this.starts[index];
    if (end > start && this.content[end - 1] === 10) {
      end--;
      if (end > start && this.content[end - 1] === 13) end--;
    }
    return end;
  }

  textAt(index: number): string {
    return this.content.toString('utf8', this.starts[index], this.textEnd(index));
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

  equals(index: number, text: string): boolean {
    const start = this.starts[index];
    const end = this.textEnd(index);
    // A line of n bytes holds between n / 3 and n UTF-16 code units.
    if (text.length > end - start || text.length * 3 < end - start) return false;
    return this.textAt(index) === text;
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

  crlfCount(): number {
    let count = 0;
    for (let at = this.content.indexOf('\r\n'); at >= 0; at = this.content.indexOf('\r\n', at + 2)) count++;
    return count;
  }

  *linesEqualTo(text: string, from: number): Generator<number> {
    if (text.includes('\n') || from >= this.length) return;
    if (text === '') {
      for (let index = from; index < this.length; index++) if (this.textEnd(index) === this.starts[index]) yield index;
      return;
    }
    const needle = Buffer.from(text, 'utf8');
    const content = this.content;
    for (let hit = content.indexOf(needle, this.starts[from]); hit >= 0; hit = content.indexOf(needle, hit + 1)) {
      if (hit > 0 && content[hit - 1] !== 10) continue;
      const line = this.lineAt(hit);
      if (this.equals(line, text)) yield line;
    }
  }
}
