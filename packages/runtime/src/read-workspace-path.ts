import { ErrorCode, resolveWorkspacePath, type ToolErrorInfo, type Workspace } from '@toolhost/core';

/** What {@link readWorkspacePath} found: a text file, a folder listing, or a model-facing error. */
export type WorkspacePathRead =
  | {
      ok: true;
      kind: 'file';
      /** Workspace-relative path. */
      path: string;
      /** The file's text without a UTF-8 BOM; line endings as stored. */
      text: string;
      /** True when the file starts with a UTF-8 BOM. */
      bom: boolean;
    }
  | {
      ok: true;
      kind: 'directory';
      path: string;
      /** Non-hidden entries up to two levels deep, relative to the folder, folders ending in `/`, sorted. */
      entries: string[];
    }
  | { ok: false; error: ToolErrorInfo };

const BOM = '\ufeff';

function failure(code: ToolErrorInfo['code'], message: string): WorkspacePathRead {
  return { ok: false, error: { code, message } };
}

async function listTwoLevels(workspace: Workspace, folder: string): Promise<string[]> {
  const entries: string[] = [];
  const join = (base: string, name: string) => (base ? `${base}/${name}` : name);
  for (const entry of await workspace.readdir(folder)) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    if (entry.kind !== 'directory') {
      entries.push(entry.name);
      continue;
    }
    entries.push(`${entry.name}/`);
    for (const child of await workspace.readdir(join(folder, entry.name)).catch(() => [])) {
      if (child.name.startsWith('.') || child.name === 'node_modules') continue;
      entries.push(`${entry.name}/${child.name}${child.kind === 'directory' ? '/' : ''}`);
    }
  }
  return entries.sort();
}

/**
 * Reads a workspace text file, or lists a folder two levels deep, with the tools' boundary checks; a path outside the
 * workspace, a missing path and a file that is not UTF-8 text come back as errors for the model.
 */
export async function readWorkspacePath(workspace: Workspace, input: string): Promise<WorkspacePathRead> {
  const check = await resolveWorkspacePath(workspace, input);
  if (!check.ok) return failure(ErrorCode.OutsideWorkspace, check.message);
  const shown = JSON.stringify(input);
  try {
    const stat = await workspace.stat(check.relative);
    if (!stat) return failure(ErrorCode.ToolFailed, `${shown} does not exist. Check the path, or list its folder first.`);
    if (stat.kind === 'directory')
      return { ok: true, kind: 'directory', path: check.relative, entries: await listTwoLevels(workspace, check.relative) };
    if (stat.kind !== 'file') return failure(ErrorCode.ToolFailed, `${shown} is not a regular file.`);
    const bytes = await workspace.readFile(check.relative);
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
    } catch {
      return failure(ErrorCode.ToolFailed, `${shown} is not UTF-8 text, so it cannot be shown or edited as text.`);
    }
    const bom = text.startsWith(BOM);
    return { ok: true, kind: 'file', path: check.relative, text: bom ? text.slice(1) : text, bom };
  } catch (error) {
    const code = (error as { code?: string }).code ?? 'error';
    return failure(ErrorCode.ToolFailed, `${shown} could not be read (${code}).`);
  }
}
