import { TextDecoder } from 'node:util';
import { OutputWindow, type CapturedText } from './output-window.js';
import { PipeTextCleaner } from './pipe-text-cleaner.js';
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

/** Pipe output: streaming UTF-8 decoding (invalid bytes become U+FFFD), ANSI and control characters removed. */
export class PipeCapture implements OutputCapture {
  private readonly decoder = new TextDecoder('utf-8');
  private readonly cleaner = new PipeTextCleaner();
  private window: OutputWindow;
  private disposed = false;

  constructor(private readonly edgeChars?: number) {
    this.window = new OutputWindow(edgeChars);
  }

  append(chunk: Uint8Array): string | undefined {
    if (this.disposed) return undefined;
    const text = this.decoder.decode(chunk, { stream: true });
    this.window.append(this.cleaner.push(text));
    return text;
  }

  finish(): string | undefined {
    if (this.disposed) return undefined;
    const text = this.decoder.decode();
    this.window.append(this.cleaner.push(text));
    return text || undefined;
  }

  async collect(): Promise<CapturedText> {
    this.window.append(this.cleaner.flush());
    const captured = this.window.captured();
    this.window = new OutputWindow(this.edgeChars);
    return captured;
  }

  dispose(): void {
    this.disposed = true;
    this.window = new OutputWindow(0);
  }
}

/** PTY output: rendered by a headless terminal, created on the first byte (a silent command needs none). */
export class TerminalCapture implements OutputCapture {
  private screen: TerminalScreen | undefined;
  private readonly decoder: TextDecoder | undefined;
  private disposed = false;

  constructor(private readonly options: TerminalScreenOptions & { decode: boolean }) {
    this.decoder = options.decode ? new TextDecoder('utf-8') : undefined;
  }

  append(chunk: Uint8Array): string | undefined {
    if (this.disposed) return undefined;
    this.screen ??= new TerminalScreen(this.options);
    this.screen.write(chunk);
    return this.decoder?.decode(chunk, { stream: true });
  }

  finish(): string | undefined {
    return this.decoder?.decode() || undefined;
  }

  collect(): Promise<CapturedText> {
    return this.screen ? this.screen.collect() : Promise.resolve({ head: '', tail: '', omittedChars: 0 });
  }

  dispose(): void {
    this.disposed = true;
    this.screen?.dispose();
  }
}
