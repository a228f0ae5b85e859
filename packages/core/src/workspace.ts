import type { FileBytes } from './file-bytes.js';
import type { FileContentQuery } from './ripgrep-arguments.js';

/** What a workspace entry is. */
export type WorkspaceEntryKind = 'file' | 'directory' | 'symlink' | 'other';

/**
 * What a workspace's multi-file commits survive. `'disk'`: their journal, kept old files, new files and folder
 * entries are flushed, so a commit is wholly before or wholly after even across a power loss or kernel crash.
 * `'process'`: the same journaled commit without any flush, so it survives the host process being killed (SIGKILL,
 * OOM) but a power loss may leave it half-way, as `git apply` and Codex, which flush nothing.
 */
export type WorkspaceDurability = 'disk' | 'process';

/** Metadata of one workspace entry. */
export interface WorkspaceStat {
  kind: WorkspaceEntryKind;
  size: number;
  mtimeMs: number;
  /** Permission bits (e.g. 0o644). */
  mode: number;
}

/** One entry of a directory listing. */
export interface WorkspaceDirEntry {
  name: string;
  kind: WorkspaceEntryKind;
}

/** Where a path really leads once symlinks are followed. */
export interface WorkspaceRealPath {
  /** True when the real path lies inside the workspace root. */
  inside: boolean;
  /** Workspace-relative POSIX path when inside, else the absolute real path. */
  path: string;
}

/**
 * Where a workspace keeps the journals of multi-file commits (outside the files the model sees), so a commit cut short
 * by a crash can be completed or rolled back by the next process. Names are plain file names; every write is durable
 * (flushed to disk) and atomic (temp file + rename) before it returns.
 */
export interface CommitJournalStore {
  /** Where the journals are, as shown to a user (an absolute folder, or a description for a remote store). */
  readonly location: string;
  /** Names of the journals present. */
  list(): Promise<string[]>;
  read(name: string): Promise<string>;
  write(name: string, text: string): Promise<void>;
  /** Removes one journal; missing is not an error. */
  remove(name: string): Promise<void>;
  /** The tag this process's commits are recorded under in their journals, for {@link CommitJournalStore.claim}. */
  readonly owner?: string;
  /**
   * Whether the commit a journal records may be settled by this process: false while its writer may still run; once
   * it is gone, first stops what the writer left running where the files are (a remote's helper processes), so none of
   * its writes lands after the settling. Without it, the writer's pid is checked on this machine.
   */
  claim?(writer: { pid: number; owner?: string }): Promise<boolean>;
}

/**
 * The file system the tools work on: a real folder or an in-memory tree. Paths are workspace-relative,
 * POSIX-separated, already checked by `resolveWorkspacePath` (`''` is the root).
 */
export interface Workspace {
  /** Absolute path of the root as shown to the model. */
  readonly root: string;
  /** True when the workspace is a real folder on disk (so processes can run in it). */
  readonly onDisk: boolean;
  /**
   * How many file calls at once serve this workspace best (a remote one runs the calls made together in one round
   * trip); a caller reading or writing many files keeps that many going in place of its own default.
   */
  readonly concurrency?: number;
  lstat(path: string): Promise<WorkspaceStat | undefined>;
  stat(path: string): Promise<WorkspaceStat | undefined>;
  /** Follows symlinks; undefined when the path does not exist. */
  realpath(path: string): Promise<WorkspaceRealPath | undefined>;
  readFile(path: string): Promise<Uint8Array>;
  /**
   * Writes atomically (temp file + rename in the same folder), creating parent folders; `data` given as pieces is
   * written as the pieces one after another. With `durable`, the data and the
   * folder entry are flushed to disk before it returns (where the workspace can). `tempName` names the temp file (a
   * plain file name, unique to the caller) so a journal can find it after a crash; default a random name. With
   * `durable` and `deferFolderSync`, only the data is flushed: the caller flushes the folder with
   * {@link Workspace.syncFolders}, so writes to one folder share one folder flush. With `tempName` and `tempFolder`,
   * the temp may instead be a folder of that name holding the file under the target's name, so a remote workspace
   * moves the files written together into their folder with one command; whoever removes a temp left by a crash
   * then removes the folder and what it holds.
   */
  writeFile(
    path: string,
    data: FileBytes,
    options?: { mode?: number; durable?: boolean; tempName?: string; deferFolderSync?: boolean; tempFolder?: boolean },
  ): Promise<void>;
  /**
   * Flushes to disk, once each, the folders holding `paths` (where {@link Workspace.writeFile} of a path writes: the
   * target's folder when the path is a symlink), so the renames, links and removals made in them are durable.
   */
  syncFolders?(paths: readonly string[]): Promise<void>;
  /**
   * Renames the file `from` to `to` in one step, replacing a file at `to` (a symlink at `to` is replaced, never followed).
   * With {@link Workspace.commitJournal}, it lets a multi-file commit survive a crash.
   */
  rename?(from: string, to: string): Promise<void>;
  /**
   * Gives the file (or symlink) at `existing` a second name `path` without copying it (a hard link; a symlink is linked,
   * not followed); fails when `path` exists. Keeps the old content of a journaled commit at no cost.
   */
  link?(existing: string, path: string): Promise<void>;
  /** The journal store of multi-file commits; a workspace without it commits in memory only (atomic while the process lives). */
  readonly commitJournal?: CommitJournalStore;
  /** Removes one file or symlink. */
  remove(path: string): Promise<void>;
  /** Removes one empty folder (fails when it is not empty); used to undo folders a failed write created. */
  removeEmptyDirectory?(path: string): Promise<void>;
  readdir(path: string): Promise<WorkspaceDirEntry[]>;
  /** The target text of the symlink at `path`, as stored (not resolved); used to re-create a removed link on rollback. */
  readLink?(path: string): Promise<string>;
  /** Creates a symlink at `path` whose target text is `target` (stored as given); fails when `path` exists. */
  createSymlink?(path: string, target: string): Promise<void>;
  /**
   * Lists the files holding a text, searched where the files are (e.g. ripgrep inside a container); undefined when it
   * cannot (then the caller reads the files itself). Remote workspaces give it so no local search ever reads their root.
   */
  findFilesContaining?(query: FileContentQuery): Promise<ReadonlySet<string> | undefined>;
}
