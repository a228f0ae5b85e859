import type { Workspace } from '@toolhost/core';
import type { FileChange } from './plan-patch.js';

/** The outcome of writing a plan. */
export type CommitResult = { ok: true } | { ok: false; message: string };

/** One change as far as it got: a symlink replacement is two steps (unlink, then write). */
interface Step {
  change: FileChange;
  linkRemoved: boolean;
  finished: boolean;
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function perform(workspace: Workspace, step: Step): Promise<void> {
  const { change } = step;
  if (change.removeLink) {
    // Unlink first, so a file added or moved onto a deleted link is a new regular file, never a write through it.
    await workspace.remove(change.key);
    step.linkRemoved = true;
  }
  if (change.after !== undefined)
    await workspace.writeFile(change.key, change.after, change.mode === undefined ? undefined : { mode: change.mode });
  else if (!change.removeLink) await workspace.remove(change.key);
  step.finished = true;
}

/** Undoes one step; returns a description of what could not be restored, if anything. */
async function undo(workspace: Workspace, step: Step): Promise<string | undefined> {
  const { change } = step;
  try {
    if (change.removeLink) {
      if (step.finished && change.after !== undefined) await workspace.remove(change.key);
      if (!step.linkRemoved) return undefined;
      if (change.linkTarget === undefined || !workspace.createSymlink) {
        return `${change.key} (a symlink${change.linkTarget === undefined ? '' : ` to ${change.linkTarget}`}; recreate it by hand)`;
      }
      await workspace.createSymlink(change.key, change.linkTarget);
    } else if (!step.finished) return undefined;
    else if (change.before !== undefined)
      await workspace.writeFile(change.key, change.before, change.beforeMode === undefined ? undefined : { mode: change.beforeMode });
    else await workspace.remove(change.key);
    return undefined;
  } catch (undoError) {
    return `${change.key} (${reason(undoError)})`;
  }
}

/**
 * Writes every change (each write is temp file + rename through the workspace): files first, then removals, then
 * symlink removals, then files replacing a deleted symlink (unlink, then a fresh regular file). If one fails, every
 * step already made is undone from the originals kept in memory, removed links re-created from their target text.
 */
export async function commitChanges(workspace: Workspace, changes: readonly FileChange[]): Promise<CommitResult> {
  const ordered = [
    ...changes.filter((change) => change.after !== undefined && !change.removeLink),
    ...changes.filter((change) => change.after === undefined && !change.removeLink),
    ...changes.filter((change) => change.after === undefined && change.removeLink),
    ...changes.filter((change) => change.after !== undefined && change.removeLink),
  ];
  const steps: Step[] = [];
  for (const change of ordered) {
    const step: Step = { change, linkRemoved: false, finished: false };
    steps.push(step);
    try {
      await perform(workspace, step);
    } catch (error) {
      const failures: string[] = [];
      for (const done of steps.reverse()) {
        const failure = await undo(workspace, done);
        if (failure) failures.push(failure);
      }
      // Folders the written files needed are removed again, deepest first, while they are empty.
      const written = steps.filter((done) => done.finished);
      const folders = [...new Set(written.flatMap((done) => done.change.createsFolders ?? []))].sort(
        (a, b) => b.split('/').length - a.split('/').length,
      );
      for (const folder of folders) {
        try {
          await workspace.removeEmptyDirectory?.(folder);
        } catch {
          // Not empty (something else was put there) or already gone: leave it.
        }
      }
      const restored =
        failures.length === 0
          ? `every file already written was restored, so nothing changed`
          : `restoring failed for ${failures.join(', ')}; every other file was restored`;
      return { ok: false, message: `writing ${change.key} failed (${reason(error)}); ${restored}.` };
    }
  }
  return { ok: true };
}
