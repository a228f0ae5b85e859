import type { Workspace } from '@toolhost/core';
import type { FileChange } from './plan-patch.js';

/** The outcome of writing a plan. */
export type CommitResult = { ok: true } | { ok: false; message: string };

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Writes every change (each write is temp file + rename through the workspace), files first, removals after and
 * symlink removals last. If one fails, every change already made is undone from the originals kept in memory.
 */
export async function commitChanges(workspace: Workspace, changes: readonly FileChange[]): Promise<CommitResult> {
  const ordered = [
    ...changes.filter((change) => change.after !== undefined),
    ...changes.filter((change) => change.after === undefined && !change.removeLink),
    ...changes.filter((change) => change.removeLink),
  ];
  const done: FileChange[] = [];
  for (const change of ordered) {
    try {
      if (change.after !== undefined) await workspace.writeFile(change.key, change.after, change.mode === undefined ? undefined : { mode: change.mode });
      else await workspace.remove(change.key);
      done.push(change);
    } catch (error) {
      const failures: string[] = [];
      for (const undo of done.reverse()) {
        try {
          if (undo.removeLink) failures.push(`${undo.key} (a symlink; recreate it by hand)`);
          else if (undo.before !== undefined) await workspace.writeFile(undo.key, undo.before, undo.beforeMode === undefined ? undefined : { mode: undo.beforeMode });
          else await workspace.remove(undo.key);
        } catch (undoError) {
          failures.push(`${undo.key} (${reason(undoError)})`);
        }
      }
      // Folders the written files needed are removed again, deepest first, while they are empty.
      const folders = [...new Set(done.flatMap((undo) => undo.createsFolders ?? []))].sort((a, b) => b.split('/').length - a.split('/').length);
      for (const folder of folders) {
        try {
          await workspace.removeEmptyDirectory?.(folder);
        } catch {
          // Not empty (something else was put there) or already gone: leave it.
        }
      }
      const restored = failures.length === 0
        ? `every file already written was restored, so nothing changed`
        : `restoring failed for ${failures.join(', ')}; every other file was restored`;
      return { ok: false, message: `writing ${change.key} failed (${reason(error)}); ${restored}.` };
    }
  }
  return { ok: true };
}
