import type { PatchOperation } from '@toolhost/patch';
import { splitShellWords } from './shell-words.js';

/** An `apply_patch` invocation sent as a shell command: the patch text and the folder a leading `cd` names. */
export interface ApplyPatchInvocation {
  /** The heredoc body or the argument, taken literally (as Codex does), whether the tag is quoted or not. */
  patch: string;
  /** The argument of a leading `cd DIR &&`, unquoted; undefined without one. */
  directory?: string;
}

// `cd` takes one word: bare (no expansion, quoting or operator characters, not an option or `-`, the previous
// folder) or quoted without expansions (quotes do not make `-` a folder either).
const CD_ARGUMENT = String.raw`'(?!-)[^'\n]*'|"(?!-)[^"$\x60\\\n]*"|[^\s'"$\x60\\;&|<>()*?[\]{}#-][^\s'"$\x60\\;&|<>()*?[\]{}#]*`;
const TAG = String.raw`'([^'\n]+)'|"([^"\n]+)"|([A-Za-z0-9_.-]+)`;
const FIRST_LINE = new RegExp(String.raw`^\s*(?:cd\s+(${CD_ARGUMENT})\s*&&\s*)?(?:apply_patch|applypatch)\s*<<(-?)\s*(?:${TAG})\s*$`);

/**
 * Recognises a command that is exactly an `apply_patch` (or `applypatch`) invocation with a heredoc, optionally
 * after `cd DIR &&`: `apply_patch <<'EOF'` then the body then `EOF` (any tag, quoted or not, `<<-` strips leading
 * tabs; trailing spaces after the closing tag are forgiven). Anything before or after it (another command, an
 * argument, a pipe, text past the closing tag) makes it an ordinary command: undefined. A body whose closing tag is
 * missing runs to the end, as a shell would run it.
 */
export function parseApplyPatchInvocation(cmd: string): ApplyPatchInvocation | undefined {
  const text = cmd.replace(/\r\n?/g, '\n');
  const newline = text.indexOf('\n');
  if (newline < 0) return undefined;
  const head = FIRST_LINE.exec(text.slice(0, newline));
  if (!head) return undefined;
  const [, cdArgument, dash, singleQuoted, doubleQuoted, bare] = head;
  const tag = singleQuoted ?? doubleQuoted ?? bare;
  let lines = text.slice(newline + 1).split('\n');
  if (dash) lines = lines.map((line) => line.replace(/^\t+/, ''));
  const end = lines.findIndex((line) => line.trimEnd() === tag);
  // A line that is the tag followed by a command (`EOF && echo done`) closes nothing in a shell, and Codex refuses it.
  if (end < 0 && lines.some((line) => line.startsWith(tag) && /^[\s;&|)]/.test(line.slice(tag.length)))) return undefined;
  if (end >= 0) {
    if (lines.slice(end + 1).some((line) => line.trim() !== '')) return undefined;
    lines = lines.slice(0, end);
  }
  const invocation: ApplyPatchInvocation = { patch: lines.join('\n') };
  if (cdArgument !== undefined) invocation.directory = /^['"]/.test(cdArgument) ? cdArgument.slice(1, -1) : cdArgument;
  return invocation;
}

/** What a shell command is as a patch: an `apply_patch` invocation, or a bare patch sent as a command. */
export type ShellCommandPatch = { kind: 'invocation'; invocation: ApplyPatchInvocation } | { kind: 'implicit' };

const APPLY_PATCH_COMMANDS = new Set(['apply_patch', 'applypatch']);

/** Whether text is a patch on its own: its first non-blank line is the Begin Patch marker. */
function isBarePatch(text: string): boolean {
  return /^\s*\*\*\* Begin Patch[ \t]*(?:\r?\n|$)/.test(text.replace(/^\uFEFF/, ''));
}

/** The lower-cased name of a program without its folder and extension (`/bin/bash` and `bash.exe` are `bash`). */
function programName(program: string): string {
  const base = program.split(/[\\/]/).at(-1) ?? '';
  const dot = base.lastIndexOf('.');
  return (dot > 0 ? base.slice(0, dot) : base).toLowerCase();
}

/**
 * The script of `[shell, flag, script]` as Codex reads it: bash, zsh or sh with `-lc` or `-c`, PowerShell (`pwsh`,
 * `powershell`) with `-Command` after an optional `-NoProfile`, cmd with `/c`.
 */
function shellScript(argv: readonly string[]): string | undefined {
  const isScriptFlag = (shell: string, flag: string) => {
    const name = programName(shell);
    if (name === 'bash' || name === 'zsh' || name === 'sh') return flag === '-lc' || flag === '-c';
    if (name === 'pwsh' || name === 'powershell') return flag.toLowerCase() === '-command';
    return name === 'cmd' && flag.toLowerCase() === '/c';
  };
  if (argv.length === 3 && isScriptFlag(argv[0], argv[1])) return argv[2];
  const powershell = ['pwsh', 'powershell'].includes(programName(argv[0] ?? ''));
  if (argv.length === 4 && powershell && argv[1].toLowerCase() === '-noprofile' && isScriptFlag(argv[0], argv[2])) return argv[3];
  return undefined;
}

/**
 * Reads a shell command the way Codex reads one before running it (`maybe_parse_apply_patch_verified`): the command
 * is a script, and when it is a plain list of words (read with the shell's quoting) also an argv. Recognised: the
 * heredoc form (optionally after `cd DIR &&`), the argument form `apply_patch PATCH` (or `applypatch`) as the whole
 * argv, and the heredoc form as the script of `bash -lc`/`-c` (zsh, sh, PowerShell `-Command`, cmd `/c` likewise).
 * A bare patch (the command, its only word, or a shell's script starting with `*** Begin Patch`) is `implicit`:
 * refused, never run. Anything else is undefined: an ordinary command.
 */
export function recognizeShellCommandPatch(cmd: string): ShellCommandPatch | undefined {
  if (isBarePatch(cmd)) return { kind: 'implicit' };
  const heredoc = parseApplyPatchInvocation(cmd);
  if (heredoc) return { kind: 'invocation', invocation: heredoc };
  const argv = splitShellWords(cmd);
  if (!argv) return undefined;
  if (argv.length === 1 && isBarePatch(argv[0])) return { kind: 'implicit' };
  if (argv.length === 2 && APPLY_PATCH_COMMANDS.has(argv[0])) return { kind: 'invocation', invocation: { patch: argv[1] } };
  const script = shellScript(argv);
  if (script === undefined) return undefined;
  if (isBarePatch(script)) return { kind: 'implicit' };
  const inner = parseApplyPatchInvocation(script);
  return inner ? { kind: 'invocation', invocation: inner } : undefined;
}

/** Whether a patch path is absolute or otherwise not relative to a folder (home, drive, UNC). */
function isRooted(path: string): boolean {
  return path.startsWith('/') || path.startsWith('\\') || path.startsWith('~') || /^[a-zA-Z]:/.test(path);
}

/**
 * The operations of a patch with their relative paths (and `moveTo`) put under `directory`, a workspace-relative
 * folder; absolute paths stay as they are. Only paths change: the operations are data, never text read again.
 */
export function rebaseOperations(operations: readonly PatchOperation[], directory: string): PatchOperation[] {
  if (directory === '') return [...operations];
  const join = (path: string) => (isRooted(path) ? path : `${directory}/${path}`);
  return operations.map((operation) =>
    operation.kind === 'update' && operation.moveTo !== undefined
      ? { ...operation, path: join(operation.path), moveTo: join(operation.moveTo) }
      : { ...operation, path: join(operation.path) },
  );
}
