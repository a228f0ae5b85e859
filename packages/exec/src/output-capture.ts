import { TextDecoder } from 'node:util';
import { OutputWindow, WINDOW_EDGE_CHARS, type CapturedText } from './output-window.js';
import { PipeTextCleaner } from './pipe-text-cleaner.js';
import { renderPlainTerminalText } from './plain-terminal-text.js';
import { TerminalScreen, type TerminalScreenOptions } from './terminal-screen.js';

/** Turns a session's raw output into the model-visible text of successive read windows. */
export interface OutputCapture {
  /** Takes raw bytes; returns them decoded when the capture decodes anyway (for the streaming hook). */
  append(chunk: Uint8Array): string | undefined;
  /** The process ended: flush partial characters. */
  finish(): string | undefined;
  /** The text since the previous collect. */
  collect(): Promise<CapturedText>;
  dispose(): void;
}

/**
 * Pipe output: streaming UTF-8 decoding (invalid bytes become U+FFFD), ANSI and control characters removed. Once the
 * window's head is full, chunks are kept raw (the last two edges' worth) and decoded only when the window is read:
 * the middle of a large output is never decoded. When raw chunks were dropped, decoding restarts after the first line
 * feed of what is kept (or at a character start in one long line), so no state from before the gap leaks into the tail.
 */
export class PipeCapture implements OutputCapture {
  private decoder = new TextDecoder('utf-8');
  private cleaner = new PipeTextCleaner();
  private window: OutputWindow;
  private disposed = false;
  private raw: Uint8Array[] = [];
  private rawBytes = 0;
  private skippedBytes = 0;
  /** Bytes decoded and the characters they left after cleaning: scales skipped bytes to characters. */
  private decodedBytes = 0;
  private keptChars = 0;

  constructor(
    private readonly edgeChars = WINDOW_EDGE_CHARS,
    private readonly options: { decode: boolean } = { decode: true },
  ) {
    this.window = new OutputWindow(edgeChars);
  }

  append(chunk: Uint8Array): string | undefined {
    if (this.disposed) return undefined;
    if (!this.options.decode && this.window.headFull) {
      this.raw.push(chunk);
      this.rawBytes += chunk.length;
      while (this.raw.length > 1 && this.rawBytes - this.raw[0]!.length >= 2 * this.edgeChars) {
        const dropped = this.raw.shift()!;
        this.rawBytes -= dropped.length;
        this.skippedBytes += dropped.length;
      }
      return undefined;
    }
    this.drainRaw();
    const text = this.decoder.decode(chunk, { stream: true });
    const cleaned = this.cleaner.push(text);
    this.decodedBytes += chunk.length;
    this.keptChars += cleaned.length;
    this.window.append(cleaned);
    return text;
  }

  /** Decodes the raw chunks kept since the head filled. */
  private drainRaw(): void {
    if (this.raw.length === 0) return;
    let data = this.raw.length === 1 ? this.raw[0]! : Buffer.concat(this.raw);
    this.raw = [];
    this.rawBytes = 0;
    if (this.skippedBytes > 0) {
      // Restart at a line start when one is near; else at a character start (one long line).
      const lineFeed = Buffer.from(data.buffer, data.byteOffset, data.byteLength).indexOf(0x0a);
      let start = lineFeed >= 0 && lineFeed < data.length / 4 ? lineFeed + 1 : 0;
      while (start < data.length && (data[start]! & 0xc0) === 0x80) start++;
      const charsPerByte = this.decodedBytes > 0 ? this.keptChars / this.decodedBytes : 1;
      this.window.skip(Math.round((this.skippedBytes + start) * charsPerByte) + this.cleaner.flush().length);
      this.skippedBytes = 0;
      data = data.subarray(start);
      this.decoder = new TextDecoder('utf-8');
      this.cleaner = new PipeTextCleaner();
    }
    this.window.append(this.cleaner.push(this.decoder.decode(data, { stream: true })));
  }

  finish(): string | undefined {
    if (this.disposed) return undefined;
    this.drainRaw();
    const text = this.decoder.decode();
    this.window.append(this.cleaner.push(text));
    return text || undefined;
  }

  async collect(): Promise<CapturedText> {
    this.drainRaw();
    this.window.append(this.cleaner.flush());
    const captured = this.window.captured();
    this.window = new OutputWindow(this.edgeChars);
    return captured;
  }

  dispose(): void {
    this.disposed = true;
    this.raw = [];
    this.window = new OutputWindow(0);
  }
}

/** Joins the captures of two consecutive stretches of output into one. */
function joinCaptured(first: CapturedText, second: CapturedText): CapturedText {
  if (first.omittedChars === 0) {
    return {
      head: first.head + first.tail + second.head,
      tail: second.tail,
      omittedChars: second.omittedChars,
      omittedLines: second.omittedLines,
    };
  }
  if (second.omittedChars === 0) return { ...first, tail: first.tail + second.head + second.tail };
  return {
    head: first.head,
    tail: second.tail,
    omittedChars: first.omittedChars + first.tail.length + second.head.length + second.omittedChars,
  };
}

/**
 * PTY output. Plain stretches (printable ASCII and CR LF, starting at the beginning of a line) render as themselves
 * and skip the terminal emulator; anything else goes through a headless terminal, created on first need, after
 * replaying the last screenful of plain output so it shows what the real terminal shows. A read window that went
 * through the emulator returns to the plain lane once the emulator rests at the start of a line.
 */
export class TerminalCapture implements OutputCapture {
  private screen: TerminalScreen | undefined;
  private readonly decoder: TextDecoder | undefined;
  private disposed = false;
  /** True while this read window has only seen plain output. */
  private plain = true;
  private window: OutputWindow;
  private afterCarriageReturn = false;
  /** The latest raw plain output (a few screenfuls), replayed into the emulator when the plain lane ends. */
  private recent: Uint8Array[] = [];
  private recentBytes = 0;
  /** Raw plain bytes of this read window (counted up to what `recent` can hold). */
  private windowBytes = 0;
  /** Bytes of output that can still change on screen: the emulator re-renders this much of the plain lane's end. */
  private readonly screenBytes: number;

  constructor(private readonly options: TerminalScreenOptions & { decode: boolean; edgeChars?: number }) {
    this.decoder = options.decode ? new TextDecoder('utf-8') : undefined;
    this.window = new OutputWindow(options.edgeChars);
    this.screenBytes = 2 * (options.rows + 1) * (options.cols + 2);
  }

  append(chunk: Uint8Array): string | undefined {
    if (this.disposed) return undefined;
    if (this.plain) {
      const rendered = renderPlainTerminalText(chunk, this.afterCarriageReturn);
      if (rendered) this.takePlain(chunk, rendered.text, rendered.pendingCarriageReturn);
      else {
        this.leavePlainLane();
        this.screen!.write(chunk);
      }
    } else this.screen!.write(chunk);
    return this.decoder?.decode(chunk, { stream: true });
  }

  private takePlain(chunk: Uint8Array, rendered: string, pendingCarriageReturn: boolean): void {
    this.afterCarriageReturn = pendingCarriageReturn;
    this.window.append(rendered);
    this.recent.push(chunk);
    this.recentBytes += chunk.length;
    this.windowBytes = Math.min(this.windowBytes + chunk.length, 4 * this.screenBytes);
    while (this.recent.length > 1 && this.recentBytes - this.recent[0]!.length >= 2 * this.screenBytes)
      this.recentBytes -= this.recent.shift()!.length;
  }

  /**
   * Hands the rest of this window to the emulator. The plain lane's last screenful of this window is taken back (a
   * cursor movement may still change it) and replayed into the emulator inside its window, after the output before it.
   */
  private leavePlainLane(): void {
    this.plain = false;
    this.screen ??= new TerminalScreen(this.options);
    const all = this.recent.length === 1 ? Buffer.from(this.recent[0]!) : Buffer.concat(this.recent);
    const windowStart = Math.max(0, all.length - this.windowBytes);
    let cut = Math.max(windowStart, all.length - this.screenBytes);
    if (cut > windowStart) {
      const lineStart = all.indexOf(0x0a, cut - 1);
      if (lineStart >= 0) cut = lineStart + 1;
    }
    const within = all.subarray(cut);
    let rendered = within.length;
    for (let index = within.indexOf(0x0d); index >= 0; index = within.indexOf(0x0d, index + 1)) rendered -= 1;
    this.window.retract(rendered);
    this.screen.restartWindow(all.subarray(Math.max(0, cut - 2 * this.screenBytes), cut), within);
    this.recent = [];
    this.recentBytes = 0;
    this.windowBytes = 0;
    this.afterCarriageReturn = false;
  }

  finish(): string | undefined {
    return this.decoder?.decode() || undefined;
  }

  async collect(): Promise<CapturedText> {
    this.windowBytes = 0;
    const plainPart = this.window.captured();
    this.window = new OutputWindow(this.options.edgeChars);
    if (this.plain || !this.screen) return plainPart;
    const rendered = await this.screen.collect();
    if (this.screen.atLineStart) this.plain = true;
    return joinCaptured(plainPart, rendered);
  }

  dispose(): void {
    this.disposed = true;
    this.window = new OutputWindow(0);
    this.recent = [];
    this.screen?.dispose();
  }
}
