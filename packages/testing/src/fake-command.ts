/** A scripted reply to input written to a running fake command with write_stdin. */
export interface FakeStdinReply {
  /** A string equals the written chars (one trailing newline ignored); a RegExp is tested against them. */
  match: string | RegExp;
  /** Text the process prints in reply. */
  output: string;
  /** When set, the process exits with this code after replying; otherwise it keeps waiting for input. */
  exitCode?: number;
}

/** A scripted command of the fake host: what exec_command prints for a matching `cmd`. */
export interface FakeCommand {
  /** A string equals the trimmed `cmd`; a RegExp is tested against `cmd`. */
  match: string | RegExp;
  /** Text the command prints once its delay has passed. */
  output: string;
  /** Exit code once finished (default 0). */
  exitCode?: number;
  /** Simulated run time in milliseconds (virtual time, no real waiting); longer than the yield time leaves a session running. */
  delayMs?: number;
  /** When set, the command keeps running after printing `output` and answers write_stdin input with these replies. */
  stdin?: FakeStdinReply[];
}

/** True when a scripted `match` accepts `text`; string matches ignore surrounding whitespace. */
export function matchesScript(match: string | RegExp, text: string): boolean {
  if (typeof match === 'string') return match.trim() === text.trim();
  match.lastIndex = 0;
  return match.test(text);
}

/** True when a stdin reply's `match` accepts the written chars (one trailing newline is ignored for strings). */
export function matchesInput(match: string | RegExp, chars: string): boolean {
  if (typeof match === 'string') return match === chars || match === chars.replace(/\r?\n$|\r$/, '');
  match.lastIndex = 0;
  return match.test(chars);
}
