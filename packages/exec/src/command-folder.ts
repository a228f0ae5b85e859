import { ErrorCode, errorResult, resolveWorkspacePath, type ToolResult, type Workspace } from '@toolhost/core';

/** Longest file name most Linux and macOS file systems accept (NAME_MAX). */
const NAME_MAX_BYTES = 255;

/** The absolute folder a command runs in (`workdir`, or the workspace root), or the result that refuses it. */
export async function commandFolder(workspace: Workspace, workdir: string | undefined): Promise<string | ToolResult> {
  if (workdir === undefined) return workspace.root;
  const shown = JSON.stringify(workdir.length > 200 ? `${workdir.slice(0, 200)}…` : workdir);
  try {
    const check = await resolveWorkspacePath(workspace, workdir);
    if (!check.ok)
      return errorResult(
        ErrorCode.OutsideWorkspace,
        `workdir: ${check.message}. Use a folder inside ${workspace.root}, or omit workdir to run in the workspace root.`,
      );
    const stat = await workspace.stat(check.relative);
    if (!stat) {
      // The workspace reports an over-long name as missing; creating it would fail too, so say why.
      if (check.relative.split('/').some((part) => Buffer.byteLength(part) > NAME_MAX_BYTES)) {
        return errorResult(
          ErrorCode.SpawnFailed,
          `workdir ${shown} cannot be used: a path component is longer than the file system allows. Choose an existing folder inside the workspace.`,
        );
      }
      return errorResult(ErrorCode.SpawnFailed, `workdir ${shown} does not exist; create it first or choose an existing folder.`);
    }
    if (stat.kind !== 'directory') return errorResult(ErrorCode.SpawnFailed, `workdir ${shown} is not a folder.`);
    return check.absolute;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    const reason =
      code === 'ENAMETOOLONG' ? 'a path component is longer than the file system allows' : `the file system refused it (${code})`;
    return errorResult(
      ErrorCode.SpawnFailed,
      `workdir ${shown} cannot be used: ${reason}. Choose an existing folder inside the workspace.`,
    );
  }
}
