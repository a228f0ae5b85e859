import type { Workspace } from '@toolhost/core';
import { recoverInterruptedCommits } from './commit-journal.js';

/** The recovery running on each workspace, so two edits (or a host opening and its first edit) never run it twice at once. */
const inFlight = new WeakMap<Workspace, Promise<string[]>>();
/** Lines of recoveries no result has told yet (a recovery started when a host opened the workspace). */
const untold = new WeakMap<Workspace, string[]>();

function run(workspace: Workspace): Promise<string[]> {
  const pending = inFlight.get(workspace);
  if (pending) return pending;
  const started = recoverInterruptedCommits(workspace)
    .catch((error: unknown) => [
      `An earlier edit may have been interrupted, and looking for it failed (${error instanceof Error ? error.message : String(error)}).`,
    ])
    .then((lines) => {
      if (lines.length > 0) untold.set(workspace, [...(untold.get(workspace) ?? []), ...lines]);
      return lines;
    })
    .finally(() => inFlight.delete(workspace));
  inFlight.set(workspace, started);
  return started;
}

/**
 * Settles the multi-file edits a stopped process left half done in `workspace` (completed or rolled back, whichever its
 * journal proves possible) and keeps what it did for the next edit's result. Hosts call it when they open a workspace;
 * every edit calls it again first. Never throws.
 */
export async function openWorkspaceForEdits(workspace: Workspace): Promise<void> {
  if (!workspace.commitJournal) return;
  await run(workspace);
}

/** Settles interrupted edits before an edit; returns the lines its result starts with (each said once). */
export async function recoverInterruptedEdits(workspace: Workspace): Promise<string[]> {
  if (!workspace.commitJournal) return [];
  await run(workspace);
  const lines = untold.get(workspace) ?? [];
  untold.delete(workspace);
  return lines;
}
