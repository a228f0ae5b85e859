import { join } from 'node:path';
import type { ChangeJournal } from './change-journal.js';
import { RACY_MARGIN_MS } from './file-limits.js';
import type { IndexEntries } from './index-entries.js';
import type { FreshnessCheck } from './index-file-check.js';
import { isUnder } from './path-under.js';
import { statOf, syncDiskWorkspace } from './sync-disk-workspace.js';
import { listFolder, walkWorkspace } from './workspace-walker.js';

/** The checks of an index's folders against the disk. */
export interface IndexFolderChecks {
  /** Walks `start`, watching and recording each folder (pushed on `found`); returns the files listed there. */
  readonly walkInto: (start: string, found?: string[]) => Promise<string[]>;
  /** Stats a known folder: gone, it is forgotten; its mtime moved or is recent (or `always`), it is listed again. */
  readonly checkFolder: (dir: string, check: FreshnessCheck, always: boolean) => Promise<void>;
  /** Walks again the folders whose ignore rules changed, dropping what they now ignore and queuing what they now show. */
  readonly applyRewalks: (check: FreshnessCheck) => Promise<Set<string>>;
}

/** Creates the folder checks of `entries` against the disk workspace at `root`, watching through `journal` when there is one. */
export function createIndexFolderChecks(root: string, entries: IndexEntries, journal: ChangeJournal | undefined): IndexFolderChecks {
  const workspace = syncDiskWorkspace(root);
  const { files, dirs } = entries;

  const walkInto = async (start: string, found: string[] = []) => {
    // Each folder is watched before it is listed, so nothing created after the listing goes unheard.
    const listed = await walkWorkspace(workspace, start, undefined, (dir) => {
      journal?.watch(dir);
      found.push(dir);
    });
    for (const dir of found) {
      const stat = statOf(dir ? join(root, dir) : root);
      if (stat?.kind === 'directory') dirs.set(dir, stat.mtimeMs);
    }
    return listed;
  };

  /** Lists a known folder again: gone files and folders are dropped, new ones queued; a .gitignore added or removed rewalks it. */
  const relist = async (dir: string, check: FreshnessCheck) => {
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

  return {
    walkInto,
    async checkFolder(dir, check, always) {
      const stat = statOf(dir ? join(root, dir) : root);
      if (stat?.kind !== 'directory') {
        entries.forgetUnder(dir);
        return;
      }
      // A folder changed within the racy margin may have changed again within the same mtime tick: listed again.
      if (stat.mtimeMs === dirs.get(dir) && !always && stat.mtimeMs < Date.now() - RACY_MARGIN_MS) return;
      dirs.set(dir, stat.mtimeMs);
      entries.dirty = true;
      await relist(dir, check);
    },
    async applyRewalks(check) {
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
    },
  };
}
