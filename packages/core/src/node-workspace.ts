import { randomBytes } from 'node:crypto';
import { promises as fs, realpathSync, type Stats } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import {
  CONFINED_FS_AVAILABLE,
  confinedLink,
  confinedRemove,
  confinedRename,
  confinedSymlink,
  confinedSyncFolders,
  confinedWriteFile,
  writeTemp,
} from './node-confined-fs.js';
import { commitJournalDirectory, createFolderJournalStore } from './node-commit-journal.js';
import type { Workspace, WorkspaceDirEntry, WorkspaceDurability, WorkspaceEntryKind, WorkspaceStat } from './workspace.js';
import { isMissing, optional } from './node-optional.js';
import { createQuickReads } from './node-quick-reads.js';

function kindOf(stats: Stats): WorkspaceEntryKind {
  if (stats.isSymbolicLink()) return 'symlink';
  if (stats.isFile()) return 'file';
  if (stats.isDirectory()) return 'directory';
  return 'other';
}

function toStat(stats: Stats): WorkspaceStat {
  return { kind: kindOf(stats), size: stats.size, mtimeMs: stats.mtimeMs, mode: stats.mode & 0o7777 };
}

/** Flushes the folder `folder` (absolute) to disk. */
async function syncFolderAt(folder: string): Promise<void> {
  const handle = await fs.open(folder, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Options of {@link createNodeWorkspace}. */
export interface NodeWorkspaceOptions {
  /**
   * toolhost's state folder, where the journals of multi-file commits are kept (in `commits/<hash of the root>/`);
   * default `$XDG_STATE_HOME/toolhost`, else `~/.local/state/toolhost`.
   */
  stateDirectory?: string;
  /** What a multi-file commit survives (see {@link WorkspaceDurability}); default `'disk'`. Large edits are faster without the flushes. */
  durability?: WorkspaceDurability;
}

/** A workspace over a real folder on disk; `root` must be an existing absolute folder. */
export function createNodeWorkspace(root: string, options: NodeWorkspaceOptions = {}): Workspace {
  const realRoot = realpathSync(root);
  const abs = (path: string) => (path ? join(root, path) : root);
  const quick = createQuickReads();
  const flushes = (options.durability ?? 'disk') === 'disk';
  return {
    root,
    onDisk: true,
    lstat: async (path) => {
      if (quick.on) {
        try {
          return toStat(quick.lstat(abs(path)));
        } catch (error) {
          if (isMissing(error)) return undefined;
          throw error;
        }
      }
      const stats = await optional(fs.lstat(abs(path)));
      return stats && toStat(stats);
    },
    stat: async (path) => {
      const stats = await optional(fs.stat(abs(path)));
      return stats && toStat(stats);
    },
    async realpath(path) {
      const real = await optional(fs.realpath(abs(path)));
      if (real === undefined) return undefined;
      if (real === realRoot) return { inside: true, path: '' };
      if (real.startsWith(realRoot + sep)) return { inside: true, path: relative(realRoot, real).split(sep).join('/') };
      return { inside: false, path: real };
    },
    // A Buffer is a Uint8Array: hand it over without a copy.
    readFile: async (path) => (quick.on ? quick.readFile(abs(path)) : undefined) ?? fs.readFile(abs(path)),
    async writeFile(path, data, options) {
      // Write through symlinks to their target, never replacing the link with a regular file.
      let target = abs(path);
      const linkStat = await optional(fs.lstat(target));
      if (linkStat?.isSymbolicLink()) target = await fs.realpath(target);
      const existing = await optional(fs.stat(target));
      const mode = options?.mode ?? (existing ? existing.mode & 0o7777 : undefined);
      // Where available, walk folders by descriptor so a folder swapped for a symlink cannot redirect the write.
      const durable = flushes && options?.durable === true;
      const tempName = options?.tempName ?? `.${randomBytes(6).toString('hex')}.toolhost.tmp`;
      const syncFolder = durable && options?.deferFolderSync !== true;
      if (CONFINED_FS_AVAILABLE) return confinedWriteFile(root, realRoot, path, data, mode, durable, tempName, syncFolder);
      await fs.mkdir(dirname(target), { recursive: true });
      const temp = join(dirname(target), tempName);
      try {
        await writeTemp(temp, data, mode, durable);
        await fs.rename(temp, target);
      } catch (error) {
        await fs.rm(temp, { force: true });
        throw error;
      }
      if (syncFolder) await syncFolderAt(dirname(target));
    },
    async syncFolders(paths) {
      if (!flushes) return;
      if (CONFINED_FS_AVAILABLE) return confinedSyncFolders(root, realRoot, paths);
      const folders = new Set<string>();
      for (const path of paths) {
        const target = abs(path);
        const real = (await optional(fs.lstat(target)))?.isSymbolicLink() ? await optional(fs.realpath(target)) : undefined;
        folders.add(dirname(real ?? target));
      }
      await Promise.all([...folders].map(syncFolderAt));
    },
    rename: (from, to) => (CONFINED_FS_AVAILABLE ? confinedRename(root, realRoot, from, to) : fs.rename(abs(from), abs(to))),
    link: (existing, path) => (CONFINED_FS_AVAILABLE ? confinedLink(root, realRoot, existing, path) : fs.link(abs(existing), abs(path))),
    commitJournal: createFolderJournalStore(commitJournalDirectory(realRoot, options.stateDirectory), { flush: flushes }),
    remove: (path) => (CONFINED_FS_AVAILABLE ? confinedRemove(root, realRoot, path) : fs.unlink(abs(path))),
    removeEmptyDirectory: (path) => fs.rmdir(abs(path)),
    readLink: (path) => fs.readlink(abs(path)),
    createSymlink: (path, target) =>
      CONFINED_FS_AVAILABLE ? confinedSymlink(root, realRoot, path, target) : fs.symlink(target, abs(path)),
    async readdir(path): Promise<WorkspaceDirEntry[]> {
      const entries = await fs.readdir(abs(path), { withFileTypes: true });
      return entries
        .map((entry) => ({
          name: entry.name,
          kind: (entry.isSymbolicLink()
            ? 'symlink'
            : entry.isFile()
              ? 'file'
              : entry.isDirectory()
                ? 'directory'
                : 'other') as WorkspaceEntryKind,
        }))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    },
  };
}
