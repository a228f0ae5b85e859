/** What a read window holds: all of its text, or a head and a tail with a gap between them. */
export interface CapturedText {
  head: string;
  tail: string;
  /** Characters dropped between head and tail (0: `head + tail` is the whole text). */
  omittedChars: number;
  /** Lines dropped between head and tail, where known. */
  omittedLines?: number;
}

/** Default characters kept at each end of a read window. */
export const WINDOW_EDGE_CHARS = 128 * 1024;

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/**
 * The text of one read window with bounded memory: the first `edgeChars` characters and the last `edgeChars`
 * characters are kept, everything in between is only counted.
 */
export class OutputWindow {
  private head = '';
  private tailChunks: string[] = [];
  private tailLength = 0;
  private total = 0;
  /** True once text was skipped: the head is final. */
  private gap = false;

  constructor(private readonly edgeChars = WINDOW_EDGE_CHARS) {}

  /** Characters appended so far. */
  get length(): number {
    return this.total;
  }

  /** True once the head holds all it keeps: later text only feeds the tail. */
  get headFull(): boolean {
    return this.gap || this.tailLength > 0 || this.head.length >= this.edgeChars - 1;
  }

  /** Counts `chars` characters that were left out (never read) after the head; the tail restarts after them. */
  skip(chars: number): void {
    if (chars <= 0) return;
    this.gap = true;
    this.total += chars;
    this.tailChunks = [];
    this.tailLength = 0;
  }

  append(text: string): void {
    if (text.length === 0) return;
    this.total += text.length;
    let rest = text;
    if (!this.gap && this.head.length < this.edgeChars && this.tailLength === 0) {
      let room = this.edgeChars - this.head.length;
      if (room < rest.length && isHighSurrogate(rest.charCodeAt(room - 1))) room -= 1;
      this.head += rest.slice(0, room);
      rest = rest.slice(room);
      if (rest.length === 0) return;
    }
    if (rest.length >= this.edgeChars) {
      this.tailChunks = [rest.slice(rest.length - this.edgeChars)];
      this.tailLength = this.edgeChars;
      return;
    }
    this.tailChunks.push(rest);
    this.tailLength += rest.length;
    // Drop whole chunks that fell out of the tail: no copying, and less than edgeChars + one chunk is kept.
    let drop = 0;
    while (this.tailLength - this.tailChunks[drop]!.length >= this.edgeChars) this.tailLength -= this.tailChunks[drop++]!.length;
    if (drop > 0) this.tailChunks.splice(0, drop);
  }

  /** Removes the last `chars` characters, when they are still held (they are whenever `chars` <= the edge size). */
  retract(chars: number): void {
    let rest = Math.min(chars, this.total);
    this.total -= rest;
    while (rest > 0 && this.tailChunks.length > 0) {
      const last = this.tailChunks[this.tailChunks.length - 1]!;
      if (last.length <= rest) {
        this.tailChunks.pop();
        this.tailLength -= last.length;
        rest -= last.length;
      } else {
        this.tailChunks[this.tailChunks.length - 1] = last.slice(0, last.length - rest);
        this.tailLength -= rest;
        rest = 0;
      }
    }
    if (rest > 0) this.head = this.head.slice(0, Math.max(0, this.head.length - rest));
  }

  /** The window's text, head and tail, with the size of the gap. */
  captured(): CapturedText {
    let tail = this.tailChunks.join('');
    if (tail.length > this.edgeChars) tail = tail.slice(tail.length - this.edgeChars);
    const kept = this.head.length + tail.length;
    const omittedChars = this.total - kept;
    // Never start the tail with half a surrogate pair.
    if (omittedChars > 0 && tail.length > 0) {
      const first = tail.charCodeAt(0);
      if (first >= 0xdc00 && first <= 0xdfff) tail = tail.slice(1);
    }
    return { head: this.head, tail, omittedChars: this.total - this.head.length - tail.length };
  }
}
