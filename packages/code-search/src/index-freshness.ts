import { join } from 'node:path';
import type { ChangeJournal, JournalChanges } from './change-journal.js';
import type { FileEntry } from './file-entry.js';
import type { IndexEntries } from './index-entries.js';
import { checkIndexedFile, type CheckReason, type FreshnessCheck } from './index-file-check.js';
import { createIndexFolderChecks } from './index-folder-checks.js';
import { isUnder } from './path-under.js';
import { statOf } from './sync-disk-workspace.js';

/** Reconciles the entries of an index with the disk: what is gone is forgotten, what changed is named to be read again. */
export interface IndexFreshness {
  /** Walks `start`, watching and recording each folder (pushed on `found`); returns the files listed there. */
  walkInto(start: string, found?: string[]): Promise<string[]>;
  /**
   * Checks every entry under `start` against the disk: folders whose mtime moved are listed again (gone files and folders
   * are dropped at once), files are stat-ed. Returns the files to read again (changed, new, or too recent to trust).
   */
  sweep(start: string): Promise<Set<string>>;
  /** What a lookup under `start` must read again: from the journal when it vouches, else by checking every entry. */
  refresh(start: string): Promise<Set<string>>;
}

/** Creates the reconciliation of `entries` with the disk workspace at `root`, heard through `journal` when there is one. */
export function createIndexFreshness(root: string, entries: IndexEntries, journal: ChangeJournal | undefined): IndexFreshness {
  const absolute = (path: string) => (path ? join(root, path) : root);
  const { files, dirs, recent, linked } = entries;
  const { walkInto, checkFolder, applyRewalks } = createIndexFolderChecks(root, entries, journal);
  const checkFile = (path: string, entry: FileEntry, check: FreshnessCheck, reason: CheckReason) =>
    checkIndexedFile(entries, absolute(path), path, entry, check, reason);

  const sweep = async (start: string): Promise<Set<string>> => {
    const check: FreshnessCheck = { pending: new Set(), rewalk: [] };
    for (const dir of [...dirs.keys()]) {
      if (isUnder(start, dir) && dirs.has(dir)) await checkFolder(dir, check, false);
    }
    for (const [path, entry] of [...files]) if (isUnder(start, path) && files.has(path)) checkFile(path, entry, check, 'sweep');
    return applyRewalks(check);
  };

  /** Applies what the journal heard: folders with names added or removed are listed again, named paths stat-ed. */
  const applyChanges = async (changes: JournalChanges): Promise<Set<string>> => {
    const check: FreshnessCheck = { pending: new Set(), rewalk: [] };
    // A folder whose name was added, removed or renamed may be another folder now (removed and made again, or one moved
    // in its place), unwatched: it is forgotten, and walked again (and watched) when its parent is listed again.
    for (const path of changes.renamed) if (path !== '' && dirs.has(path)) entries.forgetUnder(path);
    // Parents first, so a folder gone with its parent is not listed.
    for (const dir of [...changes.folders].sort()) if (dirs.has(dir)) await checkFolder(dir, check, true);
    for (const path of changes.paths) {
      const entry = files.get(path);
      if (entry) checkFile(path, entry, check, 'heard');
      else if (dirs.has(path) && statOf(absolute(path))?.kind !== 'directory') entries.forgetUnder(path);
    }
    for (const path of recent) {
      const entry = files.get(path);
      if (entry && !check.pending.has(path)) checkFile(path, entry, check, 'recent');
    }
    // The journal cannot vouch for a file written through another link: checked as a sweep checks it.
    for (const path of linked) {
      const entry = files.get(path);
      if (entry && !check.pending.has(path)) checkFile(path, entry, check, 'sweep');
    }
    return applyRewalks(check);
  };

  const refresh = async (start: string): Promise<Set<string>> => {
    const changes = journal?.healthy ? await journal.sync() : undefined;
    if (changes) return applyChanges(changes);
    // The journal could not vouch for this sync (a lost event is possible anywhere): everything is checked once.
    return sweep(journal?.healthy ? '' : start);
  };

  return { walkInto, sweep, refresh };
}
