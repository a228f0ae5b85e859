/** A scripted reply to input written to a running fake command with write_stdin. */
export interface FakeStdinReply {
  /** A string equals the written chars (one trailing newline ignored); a RegExp is tested against them. */
  match: string | RegExp;
  /** Text the process prints in reply. */
  output: string;
  /** When set, the process exits with this code after replying; otherwise it keeps waiting for input. */
  exitCode?: number;
}

/** What one run of a scripted command prints and how it ends. */
export interface FakeCommandAnswer {
  /** Text the command prints once its delay has passed. */
  output: string;
  /** Exit code once finished (default 0). */
  exitCode?: number;
  /** Simulated run time in milliseconds (virtual time, no real waiting); longer than the yield time leaves a session running. */
  delayMs?: number;
  /** When set, the command keeps running after printing `output` and answers write_stdin input with these replies. */
  stdin?: FakeStdinReply[];
}

/** What an `answer` function of a scripted command is given for one run. */
export interface FakeCommandRun {
  /** The command line as the model sent it. */
  cmd: string;
  /** How many times this scripted command ran before (0 on the first run). */
  run: number;
  /** Every workspace file as UTF-8 text, keyed by relative path, as the command starts. */
  files: Record<string, string>;
}

/**
 * A scripted command of the fake host: what exec_command prints for a matching `cmd`. Give one of three: `output` (with
 * `exitCode`, `delayMs`, `stdin`) for the same answer every run; `answers` for successive runs (the last one repeats);
 * or `answer`, a function of the run and the workspace's files (a test suite that passes once a file is fixed).
 *
 * @example
 * ```ts
 * const commands: FakeCommand[] = [
 *   { match: 'git status --short', output: ' M src/sum.js\n' },
 *   { match: 'npm run lint', answers: [{ output: '1 problem\n', exitCode: 1 }, { output: '' }] },
 *   {
 *     match: 'npm test',
 *     answer: ({ files }) => (files['src/sum.js'].includes('a + b') ? { output: '# pass 1\n' } : { output: '# fail 1\n', exitCode: 1 }),
 *   },
 * ];
 * ```
 */
export interface FakeCommand extends Partial<FakeCommandAnswer> {
  /** A string equals the trimmed `cmd`; a RegExp is tested against `cmd`. */
  match: string | RegExp;
  /** Successive answers: the first run of a matching command gets the first, and so on; the last one repeats. */
  answers?: FakeCommandAnswer[];
  /** The answer of each run, computed when the command starts. */
  answer?: (run: FakeCommandRun) => FakeCommandAnswer;
}

/** The problem with a scripted command's answer fields, or undefined when it gives exactly one kind of answer. */
export function fakeCommandProblem(command: FakeCommand): string | undefined {
  const name = `scripted command ${String(command.match)}`;
  const kinds = [command.output !== undefined, command.answers !== undefined, command.answer !== undefined].filter(Boolean).length;
  if (kinds !== 1) return `${name} needs exactly one of \`output\`, \`answers\` or \`answer\``;
  if (command.output !== undefined && typeof command.output !== 'string') return `${name} needs a string \`output\``;
  if (command.answers !== undefined) {
    if (!Array.isArray(command.answers) || command.answers.length === 0) return `${name} needs a non-empty \`answers\` array`;
    if (command.answers.some((answer) => typeof answer?.output !== 'string'))
      return `${name}: each of \`answers\` needs a string \`output\``;
  }
  if (command.answer !== undefined && typeof command.answer !== 'function') return `${name}: \`answer\` must be a function`;
  return undefined;
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
