import { ToolHostError, resolveWorkspacePath, type Workspace } from 'toolhost';

/** One directory entry as the Agents SDK's `listDir` returns it. */
export interface WorkspaceListing {
  name: string;
  /** Workspace-relative POSIX path. */
  path: string;
  type: 'file' | 'dir' | 'other';
}

/**
 * Checks a path the SDK hands over (absolute under the root or relative to it) with the tools' boundary rules and
 * returns it workspace-relative; throws `outside_workspace` for one that leaves the workspace.
 */
export async function checkedPath(workspace: Workspace, path: string): Promise<string> {
  const check = await resolveWorkspacePath(workspace, path);
  if (!check.ok) throw new ToolHostError('outside_workspace', check.message);
  return check.relative;
}

/** Reads a workspace file's bytes (the first `maxBytes` when given); throws `not_found` when it is not a file. */
export async function readWorkspaceFile(workspace: Workspace, path: string, maxBytes?: number): Promise<Uint8Array> {
  const relative = await checkedPath(workspace, path);
  const stat = await workspace.stat(relative);
  if (stat?.kind !== 'file') throw new ToolHostError('not_found', `no file at ${JSON.stringify(path)} in the workspace`);
  const bytes = await workspace.readFile(relative);
  return typeof maxBytes === 'number' && bytes.byteLength > maxBytes ? bytes.subarray(0, Math.max(0, maxBytes)) : bytes;
}

/** Lists a workspace folder, names sorted; throws `not_found` when it is not a folder. */
export async function listWorkspaceDirectory(workspace: Workspace, path: string): Promise<WorkspaceListing[]> {
  const relative = await checkedPath(workspace, path);
  const stat = await workspace.stat(relative);
  if (stat?.kind !== 'directory') throw new ToolHostError('not_found', `no folder at ${JSON.stringify(path)} in the workspace`);
  const entries = await workspace.readdir(relative);
  return entries
    .map((entry) => ({
      name: entry.name,
      path: relative ? `${relative}/${entry.name}` : entry.name,
      type: entry.kind === 'file' ? ('file' as const) : entry.kind === 'directory' ? ('dir' as const) : ('other' as const),
    }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** What a workspace path is once symlinks inside the workspace are followed; undefined when nothing is there. */
export async function workspacePathKind(workspace: Workspace, path: string): Promise<'file' | 'directory' | 'other' | undefined> {
  const relative = await checkedPath(workspace, path);
  const stat = await workspace.stat(relative);
  if (!stat) return undefined;
  return stat.kind === 'file' || stat.kind === 'directory' ? stat.kind : 'other';
}
