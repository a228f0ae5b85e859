import { randomBytes } from 'node:crypto';

/** The shell `printf` (command and format) that writes the exit sentinel; the nonce and the status follow as arguments. */
export const SENTINEL_PRINTF = `printf '\\033]777;%s;%d\\007'`;

/** What one scanned chunk holds: bytes to pass on, and the exit status once the sentinel was read. */
export interface SentinelScan {
  /** Output bytes, the sentinel removed (bytes that might start a sentinel are held back until the next chunk). */
  output: Uint8Array;
  /** The command's exit status, set on the chunk that completes the sentinel. */
  exitCode?: number;
}

const ESCAPE = 0x1b;
const BELL = 0x07;
/** Digits of an exit status, at most (0..255 needs three; a few more in case a shell reports something odd). */
const MAX_STATUS_DIGITS = 10;

/** A random nonce of upper-case hex digits (a terminal set to map output to upper case leaves it intact). */
export function newSentinelNonce(): string {
  return randomBytes(12).toString('hex').toUpperCase();
}

/**
 * Finds the exit sentinel (`ESC ] 777 ; <nonce> ; <status> BEL`, written by {@link SENTINEL_PRINTF}) in a command's
 * output stream, removes it and reads the status. The nonce appears in the script's arguments only as text after a literal `\033`, never after an ESC byte, so
 * nothing the command prints (`ps` output included) can match unless it reads the nonce and forges the sequence.
 */
export class ExitSentinelScanner {
  private readonly prefix: Buffer;
  private held: Buffer = Buffer.alloc(0);
  private found = false;

  constructor(nonce: string) {
    this.prefix = Buffer.from(`\u001b]777;${nonce};`, 'latin1');
  }

  /** True once the sentinel was read. */
  get complete(): boolean {
    return this.found;
  }

  /** Scans the next chunk of terminal output. */
  scan(chunk: Uint8Array): SentinelScan {
    if (this.found) return { output: chunk };
    const data = this.held.length > 0 ? Buffer.concat([this.held, chunk]) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    this.held = Buffer.alloc(0);
    const at = data.indexOf(this.prefix);
    if (at >= 0) {
      const digitsStart = at + this.prefix.length;
      const end = data.indexOf(BELL, digitsStart);
      if (end < 0) {
        if (data.length - digitsStart <= MAX_STATUS_DIGITS) {
          this.held = Buffer.from(data.subarray(at));
          return { output: data.subarray(0, at) };
        }
      } else {
        const status = data.toString('latin1', digitsStart, end);
        if (/^\d{1,10}$/.test(status)) {
          this.found = true;
          const output = end + 1 === data.length ? data.subarray(0, at) : Buffer.concat([data.subarray(0, at), data.subarray(end + 1)]);
          return { output, exitCode: Number(status) };
        }
      }
      // Not a well-formed sentinel: ordinary output.
      return { output: data };
    }
    // Hold back a tail that could be the start of the sentinel.
    const from = Math.max(0, data.length - this.prefix.length + 1);
    const escape = data.lastIndexOf(ESCAPE);
    if (escape >= from && this.prefix.subarray(0, data.length - escape).equals(data.subarray(escape))) {
      this.held = Buffer.from(data.subarray(escape));
      return { output: data.subarray(0, escape) };
    }
    return { output: data };
  }

  /** Bytes held back that turned out not to be a sentinel (call when the stream ends without one). */
  flush(): Uint8Array {
    const rest = this.held;
    this.held = Buffer.alloc(0);
    return rest;
  }
}
