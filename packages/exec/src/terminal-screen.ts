import xtermHeadless from '@xterm/headless';
import type { IBuffer, IMarker, Terminal as XtermTerminal } from '@xterm/headless';
import type { CapturedText } from './output-window.js';

const { Terminal } = xtermHeadless;

/** Options of {@link TerminalScreen}. */
export interface TerminalScreenOptions {
  rows: number;
  cols: number;
  /** Lines kept above the screen (default 1000). */
  scrollback?: number;
  /** Lines of a read window kept as its head once the window outgrows half the scrollback (default 100). */
  headLines?: number;
  /** Stops and restarts the producer when too much output waits to be parsed. */
  flow?: { pause(): void; resume(): void };
}

/** Bytes waiting for the terminal parser above which the producer is paused, and below which it resumes. */
const PAUSE_ABOVE = 1 << 20;
const RESUME_BELOW = 256 << 10;

function lineText(buffer: IBuffer, index: number, trimRight: boolean): string {
  return buffer.getLine(index)?.translateToString(trimRight) ?? '';
}

/** Joins physical lines `from..to` into logical lines (wrapped continuations are not new lines). */
function readLines(buffer: IBuffer, from: number, to: number): string {
  let text = '';
  for (let index = from; index <= to; index++) {
    const nextWrapped = index < to && Boolean(buffer.getLine(index + 1)?.isWrapped);
    const piece = lineText(buffer, index, !nextWrapped);
    if (index > from && !buffer.getLine(index)?.isWrapped) text += '\n';
    text += piece;
  }
  return text;
}

/**
 * Renders PTY output to plain text with a headless xterm: carriage returns, cursor movement and erasing are
 * resolved, so a progress bar shows its final state. Each `collect()` returns what appeared since the previous one.
 * Memory is bounded by the scrollback; a read window larger than it keeps its first lines and its last screenfuls.
 */
export class TerminalScreen {
  private readonly terminal: XtermTerminal;
  private readonly scrollback: number;
  private readonly headLines: number;
  private startMarker: IMarker | undefined;
  /** Text of the start line that the previous window already returned. */
  private startPrefix = '';
  private headText: string | undefined;
  private headEndMarker: IMarker | undefined;
  private linesInWindow = 0;
  private waitingBytes = 0;
  private paused = false;
  private disposed = false;
  private lastByte = -1;
  private alternate = false;
  private restingAtLineStart = true;

  constructor(private readonly options: TerminalScreenOptions) {
    this.scrollback = options.scrollback ?? 1000;
    this.headLines = options.headLines ?? 100;
    this.terminal = new Terminal({ rows: options.rows, cols: options.cols, scrollback: this.scrollback, allowProposedApi: true });
    this.startMarker = this.terminal.registerMarker(0);
    this.terminal.onLineFeed(() => this.lineFed());
    this.terminal.buffer.onBufferChange((buffer) => (this.alternate = buffer.type === 'alternate'));
  }

  /** Feeds raw PTY bytes. */
  write(chunk: Uint8Array): void {
    if (this.disposed) return;
    const size = chunk.length;
    if (size === 0) return;
    this.lastByte = chunk[size - 1]!;
    this.waitingBytes += size;
    this.terminal.write(chunk, () => {
      this.waitingBytes -= size;
      if (this.paused && this.waitingBytes < RESUME_BELOW) {
        this.paused = false;
        this.options.flow?.resume();
      }
    });
    if (!this.paused && this.waitingBytes > PAUSE_ABOVE && this.options.flow) {
      this.paused = true;
      this.options.flow.pause();
    }
  }

  private lineFed(): void {
    // Called for every line: the buffer (an object built per access) is read only once the head is due.
    if (this.alternate) return;
    this.linesInWindow += 1;
    if (this.headText !== undefined || this.linesInWindow < this.scrollback / 2) return;
    const buffer = this.terminal.buffer.active;
    const start = this.startMarker && !this.startMarker.isDisposed ? this.startMarker.line : 0;
    const end = start + this.headLines;
    const cursorLine = buffer.baseY + buffer.cursorY;
    if (end >= cursorLine) return;
    this.headText = this.stripPrefix(readLines(buffer, start, end - 1)) + '\n';
    this.startPrefix = '';
    this.headEndMarker = this.terminal.registerMarker(end - cursorLine);
  }

  private stripPrefix(text: string): string {
    return this.startPrefix && text.startsWith(this.startPrefix) ? text.slice(this.startPrefix.length) : text;
  }

  /**
   * True when, at the last `collect()`, the normal buffer was active, the cursor stood at the start of a blank line with
   * only blank lines below it and the last byte was a line feed (no escape sequence half read): output that follows may
   * be rendered without the emulator.
   */
  get atLineStart(): boolean {
    return this.restingAtLineStart;
  }

  /**
   * Feeds `before` (output rendered elsewhere, so the screen shows what the terminal shows), starts a new read window
   * there and feeds `within`, which the next `collect()` returns rendered together with what follows.
   */
  restartWindow(before: Uint8Array, within: Uint8Array): void {
    if (this.disposed) return;
    const restart = () => {
      if (this.disposed) return;
      const buffer = this.terminal.buffer.active;
      const cursorLine = buffer.baseY + buffer.cursorY;
      this.startMarker?.dispose();
      this.headEndMarker?.dispose();
      this.headEndMarker = undefined;
      this.headText = undefined;
      this.linesInWindow = 0;
      this.startMarker = this.terminal.registerMarker(0);
      this.startPrefix = lineText(buffer, cursorLine, true);
    };
    this.terminal.write(before, restart);
    if (within.length > 0) this.write(within);
    else if (before.length > 0) this.lastByte = before[before.length - 1]!;
  }

  /** Waits until every byte written so far is parsed. */
  private flushed(): Promise<void> {
    return new Promise((resolve) => this.terminal.write('', resolve));
  }

  /** The rendered text since the previous call; starts the next read window. */
  async collect(): Promise<CapturedText> {
    if (this.disposed) return { head: '', tail: '', omittedChars: 0 };
    await this.flushed();
    const buffer = this.terminal.buffer.active;
    if (buffer.type === 'alternate') {
      this.restingAtLineStart = false;
      // A full-screen program: its current screen is the output.
      const screen = readLines(buffer, buffer.viewportY, buffer.viewportY + this.terminal.rows - 1).replace(/\s+$/, '');
      return { head: screen, tail: '', omittedChars: 0 };
    }
    const cursorLine = buffer.baseY + buffer.cursorY;
    let captured: CapturedText;
    if (this.startMarker && !this.startMarker.isDisposed && this.headText === undefined) {
      captured = { head: this.stripPrefix(readLines(buffer, this.startMarker.line, cursorLine)), tail: '', omittedChars: 0 };
    } else if (this.headText !== undefined && this.headEndMarker && !this.headEndMarker.isDisposed) {
      captured = { head: this.headText, tail: readLines(buffer, this.headEndMarker.line, cursorLine), omittedChars: 0 };
    } else {
      const head = this.headText ?? '';
      const tail = readLines(buffer, 0, cursorLine);
      const keptLines = (this.headText === undefined ? 0 : this.headLines) + cursorLine + 1;
      const omittedLines = Math.max(1, this.linesInWindow + 1 - keptLines);
      const perLine = (head.length + tail.length) / Math.max(1, keptLines);
      captured = { head, tail, omittedChars: Math.max(1, Math.round(omittedLines * perLine)), omittedLines };
    }
    this.startMarker?.dispose();
    this.headEndMarker?.dispose();
    this.headEndMarker = undefined;
    this.headText = undefined;
    this.linesInWindow = 0;
    this.startMarker = this.terminal.registerMarker(0);
    this.startPrefix = lineText(buffer, cursorLine, true);
    this.restingAtLineStart = buffer.cursorX === 0 && this.lastByte === 0x0a && this.emptyFrom(buffer, cursorLine);
    return captured;
  }

  /** True when the rows from `line` to the bottom of the screen are blank (text written there would show as written). */
  private emptyFrom(buffer: IBuffer, line: number): boolean {
    const bottom = buffer.baseY + this.terminal.rows - 1;
    for (let index = line; index <= bottom; index++) if (lineText(buffer, index, true) !== '') return false;
    return true;
  }

  /** Releases the terminal. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.startMarker?.dispose();
    this.headEndMarker?.dispose();
    this.terminal.dispose();
    if (this.paused) this.options.flow?.resume();
  }
}
