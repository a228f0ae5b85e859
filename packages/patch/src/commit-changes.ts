import type { CommitJournalStore, Workspace } from '@toolhost/core';
import { concurrencyOf, runBounded } from './bounded-concurrency.js';
import {
  backupName,
  dropBackups,
  removeBackups,
  tempName,
  endJournal,
  forgetJournal,
  newCommitId,
  writeJournal,
  type CommitJournal,
} from './commit-journal.js';
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

async function perform(workspace: Workspace, step: Step, journaledTemp?: string): Promise<void> {
  const { change } = step;
  if (change.removeLink) {
    // Unlink first, so a file added or moved onto a deleted link is a new regular file, never a write through it.
    await workspace.remove(change.key);
    step.linkRemoved = true;
  }
  if (change.after !== undefined) {
    // A journaled write is flushed and uses the temp name its journal gives, so a crash leaves nothing unknown; its
    // folder is flushed once for the whole commit where the workspace can (see `syncTouchedFolders`).
    const deferFolderSync = workspace.syncFolders !== undefined;
    // Its temp may be a folder (the journal's recovery removes either), so a remote renames a folder's files at once.
    const journaled =
      journaledTemp === undefined
        ? {}
        : { durable: true, tempName: journaledTemp, tempFolder: true, ...(deferFolderSync ? { deferFolderSync } : {}) };
    const options = change.mode === undefined ? journaled : { mode: change.mode, ...journaled };
    await workspace.writeFile(change.key, change.after, Object.keys(options).length === 0 ? undefined : options);
  } else if (!change.removeLink) await workspace.remove(change.key);
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

/** Files first, then removals, then symlink removals, then files replacing a deleted symlink. */
function commitOrder(changes: readonly FileChange[]): FileChange[] {
  return [
    ...changes.filter((change) => change.after !== undefined && !change.removeLink),
    ...changes.filter((change) => change.after === undefined && !change.removeLink),
    ...changes.filter((change) => change.after === undefined && change.removeLink),
    ...changes.filter((change) => change.after !== undefined && change.removeLink),
  ];
}

/** Undoes every step made (newest first) and removes the folders the written files needed; says what it achieved. */
async function undoSteps(workspace: Workspace, steps: Step[]): Promise<string> {
  const failures: string[] = [];
  for (const done of [...steps].reverse()) {
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
  return failures.length === 0
    ? `every file already written was restored, so nothing changed`
    : `restoring failed for ${failures.join(', ')}; every other file was restored`;
}

/** Writes the changes one by one, each a temp file + rename; atomic as a whole while this process lives. */
async function commitInMemory(workspace: Workspace, ordered: readonly FileChange[]): Promise<CommitResult> {
  const steps: Step[] = [];
  for (const change of ordered) {
    const step: Step = { change, linkRemoved: false, finished: false };
    steps.push(step);
    try {
      await perform(workspace, step);
    } catch (error) {
      const restored = await undoSteps(workspace, steps);
      return { ok: false, message: `writing ${change.key} failed (${reason(error)}); ${restored}.` };
    }
  }
  return { ok: true };
}

interface StepFailure {
  /** What failed, for the message: `writing <key>` unless said. */
  action?: string;
  change: FileChange;
  error: unknown;
}

/**
 * Performs plain file writes (the first `changes` of a journaled commit) a few at a time; every one started is settled
 * before this returns, so a failure is undone with every other step in a known state. Returns the first failure in
 * commit order. Safe while the journal says `writing`: every old file is kept, so a crash rolls all of them back.
 */
async function performConcurrently(
  workspace: Workspace,
  changes: readonly FileChange[],
  journal: CommitJournal,
  steps: Step[],
): Promise<StepFailure | undefined> {
  const failures: StepFailure[] = [];
  const run = async (index: number) => {
    const step: Step = { change: changes[index]!, linkRemoved: false, finished: false };
    steps.push(step);
    try {
      await perform(workspace, step, journal.entries[index]!.temp);
    } catch (error) {
      failures[index] = { change: step.change, error };
      throw error;
    }
  };
  await runBounded(changes.length, concurrencyOf(workspace), run, true).catch(() => {});
  return failures.find((failure) => failure !== undefined);
}

/** Performs the changes from `from` on one by one; returns the first failure. */
async function performInOrder(
  workspace: Workspace,
  ordered: readonly FileChange[],
  from: number,
  journal: CommitJournal,
  steps: Step[],
): Promise<StepFailure | undefined> {
  for (let index = from; index < ordered.length; index++) {
    const step: Step = { change: ordered[index]!, linkRemoved: false, finished: false };
    steps.push(step);
    try {
      await perform(workspace, step, journal.entries[index]!.temp);
    } catch (error) {
      return { change: step.change, error };
    }
  }
  return undefined;
}

/** Keeps the old file at `key` under `backup`: a hard link where the workspace can make one, else a copy. */
async function keepOld(workspace: Workspace, change: FileChange, backup: string): Promise<void> {
  if (workspace.link) return workspace.link(change.key, backup);
  if (change.removeLink) {
    if (change.linkTarget === undefined || !workspace.createSymlink) throw new Error(`cannot keep the symlink ${change.key}`);
    return workspace.createSymlink(backup, change.linkTarget);
  }
  const mode = change.beforeMode;
  await workspace.writeFile(backup, change.before!, mode === undefined ? { durable: true } : { mode, durable: true });
}

/**
 * Flushes, once each, the folders of every target and of the folders made for them, so the commit's renames, removals
 * and new folders are on disk before its journal says `written`.
 */
async function syncTouchedFolders(workspace: Workspace, ordered: readonly FileChange[]): Promise<void> {
  const paths = ordered.flatMap((change) => [change.key, ...(change.createsFolders ?? [])]);
  await workspace.syncFolders?.(paths);
}

/** After a failed commit (its files already restored), its backups go and then its journal; else recovery finishes it. */
async function settleFailure(workspace: Workspace, store: CommitJournalStore, journal: CommitJournal): Promise<void> {
  try {
    await dropBackups(workspace, journal);
    await endJournal(store, journal.id);
  } catch {
    // The next edit's recovery tries again (the journal's process is then this one, no longer running the commit).
    forgetJournal(journal.id);
  }
}

/**
 * Writes the changes so that a crash leaves them wholly undone or wholly done: the journal (phase `writing`) is
 * written durably, every old file is kept under a backup name, the writes and removals run (each new file flushed),
 * the journal turns to `written`, then the backups and the journal go. See `commit-journal.ts` for recovery.
 */
async function commitJournaled(workspace: Workspace, store: CommitJournalStore, ordered: readonly FileChange[]): Promise<CommitResult> {
  const id = newCommitId();
  const kept = (change: FileChange) => change.before !== undefined || change.removeLink === true;
  const journal: CommitJournal = {
    version: 1,
    id,
    pid: typeof process === 'undefined' ? 0 : process.pid,
    ...(store.owner === undefined ? {} : { owner: store.owner }),
    phase: 'writing',
    entries: ordered.map((change, index) => ({
      key: change.key,
      ...(kept(change) ? { backup: backupName(change.key, id, index) } : {}),
      ...(change.after === undefined ? {} : { temp: tempName(id, index) }),
      ...(change.createsFolders ? { createsFolders: change.createsFolders } : {}),
    })),
  };
  try {
    await writeJournal(store, journal);
    // Every backup stands before the first write; a crash meanwhile rolls back from the backups made so far.
    await runBounded(ordered.length, concurrencyOf(workspace), async (index) => {
      const backup = journal.entries[index]!.backup;
      if (backup !== undefined) await keepOld(workspace, ordered[index]!, backup);
    });
    // The backups' folders are flushed once each, so every old file is on disk before a new one can be.
    const backups = journal.entries.flatMap((entry) => (entry.backup === undefined ? [] : [entry.backup]));
    if (backups.length > 0) await workspace.syncFolders?.(backups);
  } catch (error) {
    await settleFailure(workspace, store, journal);
    return { ok: false, message: `keeping a copy of the old files failed (${reason(error)}); no file was changed.` };
  }
  const steps: Step[] = [];
  const plainWrites = ordered.findIndex((change) => change.after === undefined || change.removeLink === true);
  const concurrent = plainWrites < 0 ? ordered.length : plainWrites;
  const failure =
    (await performConcurrently(workspace, ordered.slice(0, concurrent), journal, steps)) ??
    (await performInOrder(workspace, ordered, concurrent, journal, steps)) ??
    (await syncTouchedFolders(workspace, ordered).then(
      () => undefined,
      (error: unknown): StepFailure => ({ action: 'flushing the written files to disk', change: ordered[0]!, error }),
    ));
  if (failure) {
    const restored = await undoSteps(workspace, steps);
    await settleFailure(workspace, store, journal);
    const action = failure.action ?? `writing ${failure.change.key}`;
    return { ok: false, message: `${action} failed (${reason(failure.error)}); ${restored}.` };
  }
  try {
    journal.phase = 'written';
    await writeJournal(store, journal);
    // Dropping the backups is idempotent, so one failed removal (a transient error) gets a second pass at once.
    await removeBackups(workspace, journal).catch(() => dropBackups(workspace, journal));
    await endJournal(store, id);
  } catch {
    // Every file is written; what is left of the journal or its backups is cleared by the next edit's recovery.
    forgetJournal(id);
  }
  return { ok: true };
}

/**
 * Writes every change (each write is temp file + rename through the workspace): files first, then removals, then
 * symlink removals, then files replacing a deleted symlink (unlink, then a fresh regular file). If one fails, every
 * step already made is undone from the originals kept in memory, removed links re-created from their target text.
 * Where the workspace keeps a commit journal, a commit of more than one step also survives a crash of this process
 * (see {@link commitJournaled}); a single write is one rename, atomic by itself.
 */
export async function commitChanges(workspace: Workspace, changes: readonly FileChange[]): Promise<CommitResult> {
  const ordered = commitOrder(changes);
  const store = workspace.commitJournal;
  const oneStep = ordered.length === 1 && !ordered[0]!.removeLink;
  if (store && workspace.rename && !oneStep && ordered.length > 0) return commitJournaled(workspace, store, ordered);
  return commitInMemory(workspace, ordered);
}
