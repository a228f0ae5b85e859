import type { ChangeJournal } from './change-journal.js';
import { isTrusted, type FileEntry } from './file-entry.js';
import { isUnder } from './path-under.js';

/**
 * The entries of one index: one per file, the mtime of each folder when it was listed, and the files a lookup must stat
 * again whatever the journal says.
 */
export class IndexEntries {
  /** Entries by workspace-relative path. */
  readonly files = new Map<string, FileEntry>();
  /** mtime of each folder when it was last listed, by workspace-relative path ('' for the root). */
  readonly dirs = new Map<string, number>();
  /** Entries too recent to trust (checked again at each lookup until they can be). */
  readonly recent = new Set<string>();
  /** Files with several hard links: stat-ed at each lookup, since a write through another link is not heard. */
  readonly linked = new Set<string>();
  /** True when an entry changed since the cache file was last written. */
  dirty = false;

  constructor(private readonly journal: ChangeJournal | undefined) {}

  /** Stores the entry of `path`, noting whether it is too recent to trust and whether it has other links. */
  put(path: string, entry: FileEntry): void {
    this.files.set(path, entry);
    if (isTrusted(entry)) this.recent.delete(path);
    else this.recent.add(path);
    if (entry.linked) this.linked.add(path);
    else this.linked.delete(path);
  }

  forgetFile(path: string): void {
    this.recent.delete(path);
    this.linked.delete(path);
    if (this.files.delete(path)) this.dirty = true;
  }

  /** Forgets the files and folders under `dir` (itself included) and stops watching them. */
  forgetUnder(dir: string): void {
    for (const path of [...this.files.keys()]) if (isUnder(dir, path)) this.forgetFile(path);
    for (const path of [...this.dirs.keys()]) if (isUnder(dir, path)) this.dirs.delete(path);
    this.journal?.unwatchUnder(dir);
    this.dirty = true;
  }
}
