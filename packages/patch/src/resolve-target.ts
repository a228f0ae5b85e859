import { inspectWorkspacePath, normalizeWorkspacePath, type Workspace, type WorkspaceEntryKind } from '@toolhost/core';

/** A patch path checked against the workspace boundary, with what is there now. */
export type ResolvedTarget =
  | {
      ok: true;
      /** Workspace-relative path as the model wrote it (normalised). */
      path: string;
      /** Workspace-relative path of the real file (symlinks followed); the identity used for locks and writes. */
      key: string;
      /** What the path leads to; `missing` when nothing is there. */
      kind: WorkspaceEntryKind | 'missing';
      /** True when the path itself is a symlink (to `key`). */
      isLink: boolean;
      /** Folders (real workspace-relative paths, outermost first) that writing `key` would create. */
      missingFolders: string[];
    }
  | { ok: false; code: 'outside_workspace' | 'not_a_directory' | 'unusable'; message: string };

/**
 * Resolves a patch path: lexical and symlink boundary checks, then the real path of the file or of its nearest
 * existing folder. File-system errors (a name too long, no permission) come back as `unusable`, never thrown.
 */
export async function resolveTarget(workspace: Workspace, input: string): Promise<ResolvedTarget> {
  try {
    return await resolveUnchecked(workspace, input);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      code: 'unusable',
      message: `cannot use path ${JSON.stringify(input.length > 200 ? `${input.slice(0, 200)}…` : input)}: ${reason}`,
    };
  }
}

async function resolveUnchecked(workspace: Workspace, input: string): Promise<ResolvedTarget> {
  const lexical = normalizeWorkspacePath(workspace.root, input);
  // The real path is asked with the components' checks, so a remote answers both in one round trip; an answer that
  // failed is asked again where the checks need it, so an error surfaces as it would asked alone.
  const early = lexical.ok && lexical.relative !== '' ? workspace.realpath(lexical.relative).catch(() => undefined) : undefined;
  const checked = await inspectWorkspacePath(workspace, input);
  if (!checked.ok) return { ok: false, code: 'outside_workspace', message: checked.message };
  const path = checked.relative;
  if (path === '')
    return { ok: false, code: 'outside_workspace', message: `path ${JSON.stringify(input)} is the workspace root, not a file` };
  const own = checked.own;
  if (own) {
    const real = (await early) ?? (await workspace.realpath(path));
    if (!real || !real.inside)
      return { ok: false, code: 'outside_workspace', message: `path ${JSON.stringify(input)} leads outside the workspace` };
    if (own.kind === 'symlink') {
      const target = await workspace.stat(path);
      return { ok: true, path, key: real.path, kind: target?.kind ?? 'missing', isLink: true, missingFolders: [] };
    }
    return { ok: true, path, key: real.path, kind: own.kind, isLink: false, missingFolders: [] };
  }
  // Missing: find the nearest existing ancestor, which must be a folder.
  const parts = path.split('/');
  for (let cut = parts.length - 1; cut >= 0; cut--) {
    const ancestor = parts.slice(0, cut).join('/');
    const stat = cut === 0 ? { kind: 'directory' as const } : await workspace.stat(ancestor);
    if (!stat) continue;
    if (stat.kind !== 'directory') {
      return {
        ok: false,
        code: 'not_a_directory',
        message: `${ancestor} is a ${stat.kind === 'file' ? 'file' : stat.kind}, so ${path} cannot be created inside it`,
      };
    }
    const real = cut === 0 ? { inside: true, path: '' } : await workspace.realpath(ancestor);
    if (!real || !real.inside)
      return { ok: false, code: 'outside_workspace', message: `path ${JSON.stringify(input)} leads outside the workspace` };
    const rest = parts.slice(cut).join('/');
    const key = real.path ? `${real.path}/${rest}` : rest;
    const keyParts = key.split('/');
    const missingFolders: string[] = [];
    for (let depth = keyParts.length - (parts.length - cut); depth < keyParts.length - 1; depth++)
      missingFolders.push(keyParts.slice(0, depth + 1).join('/'));
    return { ok: true, path, key, kind: 'missing', isLink: false, missingFolders };
  }
  return { ok: true, path, key: path, kind: 'missing', isLink: false, missingFolders: [] };
}
