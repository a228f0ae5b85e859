// eslint-disable-next-line no-control-regex
const SPECIAL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

/** A held (still retractable) line longer than this is passed on as it is. */
const LINE_HOLD = 4096;
/** Longest CSI sequence / string (OSC, DCS, …) dropped before giving up on it. */
const MAX_CSI = 64;
const MAX_STRING = 8192;

const enum State {
  Normal,
  Escape,
  EscapeIntermediate,
  Csi,
  String,
  StringEscape,
}

/**
 * Streaming cleaner for pipe output: removes ANSI escape sequences (CSI, OSC, DCS, charset selections, C1 forms)
 * and control characters other than `\n` and `\t`; `\r\n` becomes `\n`, a lone `\r` lets what follows replace the
 * current line (progress output), a backspace removes the previous character. Sequences split across chunks are
 * handled; memory stays bounded.
 */
export class PipeTextCleaner {
  private state = State.Normal;
  private sequenceLength = 0;
  private line = '';
  /** True once part of the current line was passed on, so it can no longer be replaced. */
  private lineReleased = false;
  private pendingCarriageReturn = false;

  /** Cleans the next piece of decoded text; returns the part that is final. */
  push(text: string): string {
    if (this.state === State.Normal && !this.pendingCarriageReturn && !SPECIAL.test(text)) {
      this.line += text;
      return this.release();
    }
    let run = 0;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      switch (this.state) {
        case State.Normal: {
          const special = code < 0x20 ? code !== 0x0a && code !== 0x09 : code >= 0x7f && code <= 0x9f;
          if (!special && !this.pendingCarriageReturn) continue;
          if (i > run) this.appendPlain(text.slice(run, i));
          run = i + 1;
          if (!special) {
            // The character right after a carriage return: `\n` ends the line, anything else replaces it.
            this.appendPlain(text[i]!);
            continue;
          }
          this.control(code);
          break;
        }
        case State.Escape:
          if (code === 0x5b) this.enter(State.Csi);
          else if (code === 0x5d || code === 0x50 || code === 0x58 || code === 0x5e || code === 0x5f) this.enter(State.String);
          else if (code >= 0x20 && code <= 0x2f) this.enter(State.EscapeIntermediate);
          else if (code >= 0x30 && code <= 0x7e) this.state = State.Normal;
          else {
            this.state = State.Normal;
            i -= 1;
          }
          run = i + 1;
          break;
        case State.EscapeIntermediate:
          if (code >= 0x30 && code <= 0x7e) this.state = State.Normal;
          else if (code < 0x20 || code > 0x2f || ++this.sequenceLength > MAX_CSI) {
            this.state = State.Normal;
            i -= 1;
          }
          run = i + 1;
          break;
        case State.Csi:
          if (code >= 0x40 && code <= 0x7e) this.state = State.Normal;
          else if (code < 0x20 || code > 0x3f || ++this.sequenceLength > MAX_CSI) {
            // Not a well-formed CSI sequence: drop what was read and treat this character as text.
            this.state = State.Normal;
            i -= 1;
          }
          run = i + 1;
          break;
        case State.String:
          if (code === 0x07 || code === 0x9c || ++this.sequenceLength > MAX_STRING) this.state = State.Normal;
          else if (code === 0x1b) this.state = State.StringEscape;
          run = i + 1;
          break;
        case State.StringEscape:
          // ESC \ is the string terminator; any other ESC ends the string too and starts a new sequence.
          if (code === 0x5c) this.state = State.Normal;
          else {
            this.state = State.Escape;
            i -= 1;
          }
          run = i + 1;
          break;
      }
    }
    if (this.state === State.Normal && run < text.length) this.appendPlain(text.slice(run));
    return this.release();
  }

  /** Returns the held partial line (call when a read window closes). */
  flush(): string {
    const rest = this.line;
    if (rest) this.lineReleased = true;
    this.line = '';
    return rest;
  }

  private enter(state: State): void {
    this.state = state;
    this.sequenceLength = 0;
  }

  private control(code: number): void {
    if (code === 0x1b) this.enter(State.Escape);
    else if (code === 0x9b) this.enter(State.Csi);
    else if (code === 0x9d || code === 0x90 || code === 0x98 || code === 0x9e || code === 0x9f) this.enter(State.String);
    else if (code === 0x0d) this.pendingCarriageReturn = true;
    else if (code === 0x08) {
      if (this.line.length > 0 && !this.line.endsWith('\n')) this.line = this.line.slice(0, -1);
    }
    // Every other control character (NUL, BEL, …) is dropped.
  }

  /** A lone carriage return: what follows replaces the current line (only the part after the last newline). */
  private overwriteLine(): void {
    this.pendingCarriageReturn = false;
    const cut = this.line.lastIndexOf('\n');
    if (cut >= 0) this.line = this.line.slice(0, cut + 1);
    else if (this.lineReleased) this.line += '\n';
    else this.line = '';
    this.lineReleased = false;
  }

  private appendPlain(text: string): void {
    if (this.pendingCarriageReturn) {
      if (text.charCodeAt(0) === 0x0a) this.pendingCarriageReturn = false;
      else this.overwriteLine();
    }
    this.line += text;
  }

  private release(): string {
    const cut = this.line.lastIndexOf('\n');
    let out = '';
    if (cut >= 0) {
      out = this.line.slice(0, cut + 1);
      this.line = this.line.slice(cut + 1);
      this.lineReleased = false;
    }
    if (this.line.length > LINE_HOLD) {
      out += this.line;
      this.line = '';
      this.lineReleased = true;
    }
    return out;
  }
}
