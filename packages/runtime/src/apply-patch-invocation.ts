import type { PatchOperation } from '@toolhost/patch';

/** An `apply_patch` heredoc sent as a shell command: the patch text and the folder a leading `cd` names. */
export interface ApplyPatchInvocation {
  /** The heredoc body, taken literally (as Codex does), whether the tag is quoted or not. */
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
  if (end >= 0) {
    if (lines.slice(end + 1).some((line) => line.trim() !== '')) return undefined;
    lines = lines.slice(0, end);
  }
  const invocation: ApplyPatchInvocation = { patch: lines.join('\n') };
  if (cdArgument !== undefined) invocation.directory = /^['"]/.test(cdArgument) ? cdArgument.slice(1, -1) : cdArgument;
  return invocation;
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
