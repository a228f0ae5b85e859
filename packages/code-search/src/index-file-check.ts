import { isTrusted, type FileEntry } from './file-entry.js';
import { RACY_MARGIN_MS } from './file-limits.js';
import type { IndexEntries } from './index-entries.js';
import { statOf } from './sync-disk-workspace.js';

/** Collects what one lookup must read again, and the folders whose .gitignore rules must be applied again. */
export interface FreshnessCheck {
  pending: Set<string>;
  rewalk: string[];
}

/**
 * Why a file is checked: every entry is (`sweep`), the journal heard it change (`heard`), or its entry is too recent to
 * trust (`recent`).
 */
export type CheckReason = 'sweep' | 'heard' | 'recent';

/**
 * Stats an indexed file (at `absolute`): gone, it is forgotten; otherwise it is read again when the journal heard it change,
 * when its size or mtime moved, or when reading it now would make a recent entry trusted. A changed .gitignore also has its
 * folder walked again.
 */
export function checkIndexedFile(
  entries: IndexEntries,
  absolute: string,
  path: string,
  entry: FileEntry,
  check: FreshnessCheck,
  reason: CheckReason,
): void {
  const stat = statOf(absolute);
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
}
