import type { Workspace, WorkspaceStat } from './workspace.js';

/** A path checked to stay inside the workspace. */
export type WorkspacePathCheck = { ok: true; relative: string; absolute: string } | { ok: false; message: string };

// C0 controls, DEL and the C1 controls (e.g. NEL, 8-bit CSI), all of Unicode category Cc.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** Why a path with a NUL or another control character is refused, or undefined when it has none. */
export function controlCharacterProblem(input: string): string | undefined {
  return CONTROL.test(input) ? `path ${JSON.stringify(input)} contains a NUL or control character` : undefined;
}

function joinRoot(root: string, relative: string): string {
  if (!relative) return root;
  return root.endsWith('/') ? root + relative : `${root}/${relative}`;
}

/**
 * Lexical checks: rejects empty paths, control characters, `~`, Windows drive/UNC forms, absolute paths outside
 * `root` and `..` escapes; returns the normalised workspace-relative path.
 */
export function normalizeWorkspacePath(root: string, input: string): WorkspacePathCheck {
  if (typeof input !== 'string' || input.length === 0) return { ok: false, message: 'path is empty' };
  const control = controlCharacterProblem(input);
  if (control) return { ok: false, message: control };
  if (input.length > 4096) return { ok: false, message: 'path is longer than 4096 characters' };
  if (input.startsWith('~'))
    return { ok: false, message: `path ${JSON.stringify(input)} starts with "~"; home-relative paths are outside the workspace` };
  if (/^[a-zA-Z]:/.test(input) || input.startsWith('\\\\') || input.startsWith('//?/') || input.startsWith('\\')) {
    return { ok: false, message: `path ${JSON.stringify(input)} is a Windows drive or UNC path outside the workspace` };
  }
  const rootNorm = root.replace(/\/+$/, '') || '/';
  let rest: string;
  if (input.startsWith('/')) {
    if (input === rootNorm || input === `${rootNorm}/`) rest = '';
    else if (input.startsWith(`${rootNorm}/`) || rootNorm === '/')
      rest = rootNorm === '/' ? input.slice(1) : input.slice(rootNorm.length + 1);
    else return { ok: false, message: `path ${JSON.stringify(input)} is outside the workspace ${rootNorm}` };
  } else rest = input;
  const parts: string[] = [];
  for (const segment of rest.split(/[/\\]+/)) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (parts.length === 0) return { ok: false, message: `path ${JSON.stringify(input)} escapes the workspace with ".."` };
      parts.pop();
      continue;
    }
    parts.push(segment);
  }
  const relative = parts.join('/');
  return { ok: true, relative, absolute: joinRoot(rootNorm, relative) };
}

/** A path checked by {@link inspectWorkspacePath}, with what `lstat` found at the path itself. */
export type WorkspacePathInspection =
  | { ok: true; relative: string; absolute: string; /** Undefined when nothing is there. */ own: WorkspaceStat | undefined }
  | { ok: false; message: string };

/**
 * Full check: the lexical rules of {@link normalizeWorkspacePath}, then every existing component that is a symlink
 * must resolve inside the workspace.
 */
export async function resolveWorkspacePath(workspace: Workspace, input: string): Promise<WorkspacePathCheck> {
  const checked = await checkComponents(workspace, input);
  return checked.ok ? checked.lexical : checked;
}

/**
 * {@link resolveWorkspacePath}, also giving what `lstat` found at the path itself. Every component is looked at in one
 * go (a remote workspace answers them in one round trip); the checks then run in order over the answers, so a path
 * fails as it would checked one component at a time.
 */
export async function inspectWorkspacePath(workspace: Workspace, input: string): Promise<WorkspacePathInspection> {
  const checked = await checkComponents(workspace, input);
  if (!checked.ok) return checked;
  // The root has no component of its own to have been looked at.
  const own = checked.lexical.relative === '' ? await workspace.lstat('') : checked.last;
  return { ...checked.lexical, own };
}

/** No answer yet: the query failed and is asked again, alone, when the check gets to it. */
const ASK_AGAIN = Symbol('ask again');

/** The checks of {@link resolveWorkspacePath}, with what `lstat` found at the last component (undefined: nothing). */
async function checkComponents(
  workspace: Workspace,
  input: string,
): Promise<
  { ok: true; lexical: Extract<WorkspacePathCheck, { ok: true }>; last: WorkspaceStat | undefined } | { ok: false; message: string }
> {
  const lexical = normalizeWorkspacePath(workspace.root, input);
  if (!lexical.ok) return lexical;
  const parts = lexical.relative ? lexical.relative.split('/') : [];
  const prefixes = parts.map((_, index) => parts.slice(0, index + 1).join('/'));
  // A component past one the checks stop at may fail to be looked at (through a file, a loop): that is asked again.
  const answers = await Promise.all(prefixes.map((prefix) => workspace.lstat(prefix).catch((): typeof ASK_AGAIN => ASK_AGAIN)));
  let last: WorkspaceStat | undefined;
  for (let i = 0; i < prefixes.length; i++) {
    const prefix = prefixes[i]!;
    const answer = answers[i];
    const stat = answer === ASK_AGAIN ? await workspace.lstat(prefix) : answer;
    if (!stat) break;
    if (stat.kind === 'symlink') {
      const real = await workspace.realpath(prefix);
      if (real && !real.inside) {
        return { ok: false, message: `path ${JSON.stringify(input)} goes through symlink ${prefix} that leads outside the workspace` };
      }
      if (!real) {
        return { ok: false, message: `path ${JSON.stringify(input)} goes through a dangling symlink ${prefix}` };
      }
    }
    if (i === prefixes.length - 1) last = stat;
  }
  return { ok: true, lexical, last };
}
