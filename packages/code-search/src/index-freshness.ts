import { join } from 'node:path';
import type { ChangeJournal, JournalChanges } from './change-journal.js';
import { isTrusted, type FileEntry } from './file-entry.js';
import { RACY_MARGIN_MS } from './file-limits.js';
import type { IndexEntries } from './index-entries.js';
import { isUnder } from './path-under.js';
import { statOf, syncDiskWorkspace } from './sync-disk-workspace.js';
import { listFolder, walkWorkspace } from './workspace-walker.js';

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

/** Collects what one lookup must read again, and the folders whose .gitignore rules must be applied again. */
interface Check {
  pending: Set<string>;
  rewalk: string[];
}

/** Creates the reconciliation of `entries` with the disk workspace at `root`, heard through `journal` when there is one. */
export function createIndexFreshness(root: string, entries: IndexEntries, journal: ChangeJournal | undefined): IndexFreshness {
  const workspace = syncDiskWorkspace(root);
  const absolute = (path: string) => (path ? join(root, path) : root);
  const { files, dirs, recent, linked } = entries;

  const walkInto = async (start: string, found: string[] = []) => {
    // Each folder is watched before it is listed, so nothing created after the listing goes unheard.
    const listed = await walkWorkspace(workspace, start, undefined, (dir) => {
      journal?.watch(dir);
      found.push(dir);
    });
    for (const dir of found) {
      const stat = statOf(absolute(dir));
      if (stat?.kind === 'directory') dirs.set(dir, stat.mtimeMs);
    }
    return listed;
  };

  /** Lists a known folder again: gone files and folders are dropped, new ones queued; a .gitignore added or removed rewalks it. */
  const relist = async (dir: string, check: Check) => {
    const listing = await listFolder(workspace, dir).catch(() => ({ files: [] as string[], folders: [] as string[] }));
    if (
      listing.files.some((path) => path.endsWith('/.gitignore') || path === '.gitignore') !==
      files.has(dir ? `${dir}/.gitignore` : '.gitignore')
    ) {
      check.rewalk.push(dir);
      return;
    }
    const prefix = dir ? `${dir}/` : '';
    const keepFiles = new Set(listing.files);
    const keepFolders = new Set(listing.folders);
    for (const path of [...files.keys()])
      if (path.slice(0, path.lastIndexOf('/') + 1) === prefix && !keepFiles.has(path)) entries.forgetFile(path);
    for (const folder of [...dirs.keys()]) {
      if (folder !== dir && folder.slice(0, folder.lastIndexOf('/') + 1) === prefix && !keepFolders.has(folder))
        entries.forgetUnder(folder);
    }
    for (const path of listing.files) if (!files.has(path)) check.pending.add(path);
    for (const folder of listing.folders) {
      if (dirs.has(folder)) continue;
      for (const path of await walkInto(folder)) check.pending.add(path);
    }
  };

  /** Stats a known folder: gone, it is forgotten; its mtime moved or is recent (or `always`), it is listed again. */
  const checkFolder = async (dir: string, check: Check, always: boolean) => {
    const stat = statOf(absolute(dir));
    if (stat?.kind !== 'directory') {
      entries.forgetUnder(dir);
      return;
    }
    // A folder changed within the racy margin may have changed again within the same mtime tick: listed again.
    if (stat.mtimeMs === dirs.get(dir) && !always && stat.mtimeMs < Date.now() - RACY_MARGIN_MS) return;
    dirs.set(dir, stat.mtimeMs);
    entries.dirty = true;
    await relist(dir, check);
  };

  /**
   * Stats a known file: gone, it is forgotten; otherwise it is read again when the journal heard it change (`heard`), when
   * its size or mtime moved, or when reading it now would make a recent entry trusted.
   */
  const checkFile = (path: string, entry: FileEntry, check: Check, reason: 'sweep' | 'heard' | 'recent') => {
    const stat = statOf(absolute(path));
    if (stat?.kind !== 'file') {
      entries.forgetFile(path);
      return;
    }
    if (reason !== 'heard' && stat.size === entry.size && stat.mtimeMs === entry.mtimeMs) {
      if (isTrusted(entry)) return;
      // Heard changes vouch for a recent entry whose file kept its stat: it is read again only once that makes it trusted.
      if (reason === 'recent' && stat.mtimeMs >= Date.now() - RACY_MARGIN_MS) return;
    }
    if (path === '.gitignore' || path.endsWith('/.gitignore')) check.rewalk.push(path.slice(0, Math.max(0, path.lastIndexOf('/'))));
    check.pending.add(path);
  };

  /** Walks again the folders whose ignore rules changed, dropping what they now ignore and queuing what they now show. */
  const applyRewalks = async (check: Check) => {
    // Parents first: a folder a parent's new rules now ignore is forgotten before its own turn.
    for (const dir of [...new Set(check.rewalk)].sort()) {
      if (!dirs.has(dir)) continue;
      const folders: string[] = [];
      const listed = new Set(await walkInto(dir, folders));
      const kept = new Set(folders);
      for (const folder of [...dirs.keys()])
        if (folder !== dir && isUnder(dir, folder) && dirs.has(folder) && !kept.has(folder)) entries.forgetUnder(folder);
      for (const path of [...files.keys()]) {
        if (isUnder(dir, path) && !listed.has(path)) {
          entries.forgetFile(path);
          check.pending.delete(path);
        }
      }
      for (const path of listed) if (!files.has(path)) check.pending.add(path);
      entries.dirty = true;
    }
    return check.pending;
  };

  const sweep = async (start: string): Promise<Set<string>> => {
    const check: Check = { pending: new Set(), rewalk: [] };
    for (const dir of [...dirs.keys()]) {
      if (isUnder(start, dir) && dirs.has(dir)) await checkFolder(dir, check, false);
    }
    for (const [path, entry] of [...files]) if (isUnder(start, path) && files.has(path)) checkFile(path, entry, check, 'sweep');
    return applyRewalks(check);
  };

  /** Applies what the journal heard: folders with names added or removed are listed again, named paths stat-ed. */
  const applyChanges = async (changes: JournalChanges): Promise<Set<string>> => {
    const check: Check = { pending: new Set(), rewalk: [] };
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
