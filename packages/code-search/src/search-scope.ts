import { ErrorCode, errorResult, resolveWorkspacePath, type ToolResult, type Workspace } from '@toolhost/core';
import type { CodeSearchArgs } from './code-search-schema.js';
import { resolveFileTypes } from './language-table.js';

/** Where a search looks: a workspace-relative folder or file ('' for all) and the extensions it keeps to, if any. */
export type SearchScope = { ok: true; start: string; extensions?: ReadonlySet<string> } | { ok: false; result: ToolResult };

/** Resolves the `path` and `file_types` arguments; a path outside the workspace or missing, or an unknown type, is an error result. */
export async function resolveSearchScope(workspace: Workspace, args: Pick<CodeSearchArgs, 'path' | 'file_types'>): Promise<SearchScope> {
  let start = '';
  if (args.path !== undefined) {
    const checked = await resolveWorkspacePath(workspace, args.path);
    if (!checked.ok)
      return { ok: false, result: errorResult(ErrorCode.OutsideWorkspace, `${checked.message}. Pass a path inside ${workspace.root}.`) };
    start = checked.relative;
    const stat = await workspace.stat(start);
    if (!stat || (stat.kind !== 'file' && stat.kind !== 'directory')) {
      return {
        ok: false,
        result: errorResult(
          ErrorCode.InvalidArguments,
          `path ${JSON.stringify(args.path)} does not exist in the workspace; omit path or pass an existing file or folder.`,
        ),
      };
    }
    const real = await workspace.realpath(start);
    if (real?.inside) start = real.path;
  }
  let extensions: ReadonlySet<string> | undefined;
  if (args.file_types !== undefined && args.file_types.length > 0) {
    const selection = resolveFileTypes(args.file_types);
    if (!selection.ok) return { ok: false, result: errorResult(ErrorCode.InvalidArguments, selection.message) };
    extensions = selection.extensions;
  }
  return { ok: true, start, extensions };
}
