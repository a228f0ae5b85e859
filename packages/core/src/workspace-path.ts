import type { Workspace } from './workspace.js';

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

/**
 * Full check: the lexical rules of {@link normalizeWorkspacePath}, then every existing component that is a symlink
 * must resolve inside the workspace.
 */
export async function resolveWorkspacePath(workspace: Workspace, input: string): Promise<WorkspacePathCheck> {
  const lexical = normalizeWorkspacePath(workspace.root, input);
  if (!lexical.ok) return lexical;
  const parts = lexical.relative ? lexical.relative.split('/') : [];
  for (let i = 1; i <= parts.length; i++) {
    const prefix = parts.slice(0, i).join('/');
    const stat = await workspace.lstat(prefix);
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
  }
  return lexical;
}
