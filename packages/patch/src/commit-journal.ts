import type { CommitJournalStore, Workspace } from '@toolhost/core';
import { concurrencyOf, runBounded } from './bounded-concurrency.js';

/**
 * The journal of one multi-file commit, written durably before its first write. `writing`: targets may be half
 * written, and every old file is kept under its backup name, so recovery rolls back (each backup renamed over its
 * target, each created file removed). `written`: every new content is on disk, so recovery rolls forward (the
 * remaining backups go).
 */
export interface CommitJournal {
  version: 1;
  id: string;
  /** The process that wrote it: a journal whose process is alive belongs to a commit still running. */
  pid: number;
  /** The store's tag of the process that wrote it (remote stores), which its claim reads. */
  owner?: string;
  phase: 'writing' | 'written';
  /** In the order the commit performs them. */
  entries: JournalEntry[];
}

/** One target of the commit. */
export interface JournalEntry {
  key: string;
  /** Where the old file (or symlink) at `key` is kept (same folder, a hard link or a copy); absent when `key` is new. */
  backup?: string;
  /** The temp file its new content is written to before the rename (same folder), removed if a crash left it. */
  temp?: string;
  /** Folders made for a new file, removed again on rollback while empty. */
  createsFolders?: string[];
}

/** Commits of this process still running, by id: their journals are not someone else's to recover. */
const running = new Set<string>();

/** A fresh commit id. */
export function newCommitId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The backup name of the `index`-th change of a commit: a hidden file beside its target, so a restore is one rename. */
export function backupName(key: string, id: string, index: number): string {
  return `${folderOf(key)}.${id}-${index}.toolhost.old`;
}

/** The temp file name (no folder) the `index`-th change of a commit is written to. */
export function tempName(id: string, index: number): string {
  return `.${id}-${index}.toolhost.tmp`;
}

function folderOf(key: string): string {
  const slash = key.lastIndexOf('/');
  return slash < 0 ? '' : key.slice(0, slash + 1);
}

/** Removes the temp files a crash left mid-write: a temp file, or a temp folder and the file in it. */
async function dropTemps(workspace: Workspace, journal: CommitJournal): Promise<void> {
  await runBounded(journal.entries.length, concurrencyOf(workspace), async (index) => {
    const entry = journal.entries[index]!;
    if (!entry.temp) return;
    const temp = `${folderOf(entry.key)}${entry.temp}`;
    const found = await workspace.lstat(temp);
    if (found?.kind !== 'directory') {
      if (found) await workspace.remove(temp);
      return;
    }
    for (const inside of await workspace.readdir(temp)) await workspace.remove(`${temp}/${inside.name}`);
    await workspace.removeEmptyDirectory?.(temp);
  });
}

function journalName(id: string): string {
  return `${id}.json`;
}

/** Records a commit's journal (durably); the commit counts as running in this process until {@link endJournal}. */
export async function writeJournal(store: CommitJournalStore, journal: CommitJournal): Promise<void> {
  running.add(journal.id);
  await store.write(journalName(journal.id), JSON.stringify(journal));
}

/** Removes a commit's journal once its files are settled. */
export async function endJournal(store: CommitJournalStore, id: string): Promise<void> {
  try {
    await store.remove(journalName(id));
  } finally {
    running.delete(id);
  }
}

/** Marks a commit of this process as no longer running, so recovery may settle its journal. */
export function forgetJournal(id: string): void {
  running.delete(id);
}

function processAlive(pid: number): boolean {
  if (typeof process === 'undefined' || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function exists(workspace: Workspace, path: string): Promise<boolean> {
  return (await workspace.lstat(path)) !== undefined;
}

/** Removes the backups of a commit whose new contents all stand. */
export async function dropBackups(workspace: Workspace, journal: CommitJournal): Promise<void> {
  await dropTemps(workspace, journal);
  await runBounded(journal.entries.length, concurrencyOf(workspace), async (index) => {
    const backup = journal.entries[index]!.backup;
    if (backup && (await exists(workspace, backup))) await workspace.remove(backup);
  });
}

/**
 * Removes the backups of a commit this process just completed: every temp file was renamed and every backup stands, so
 * nothing is looked up first. A failure leaves the rest to {@link dropBackups}.
 */
export async function removeBackups(workspace: Workspace, journal: CommitJournal): Promise<void> {
  await runBounded(journal.entries.length, concurrencyOf(workspace), async (index) => {
    const backup = journal.entries[index]!.backup;
    if (backup) await workspace.remove(backup);
  });
}

/**
 * Takes a commit back to wholly before: each backup is renamed over its target (one step, so a crash here is
 * recovered the same way again), each file that did not exist goes, and so do the folders made for them.
 */
export async function rollBack(workspace: Workspace, journal: CommitJournal): Promise<void> {
  await dropTemps(workspace, journal);
  for (const entry of [...journal.entries].reverse()) {
    if (entry.backup) {
      // A missing backup was renamed back already. The target goes first: renaming a hard link onto another name of
      // the same file does nothing, and a crash between the two steps is repaired by the same steps again.
      if (!(await exists(workspace, entry.backup))) continue;
      if (await exists(workspace, entry.key)) await workspace.remove(entry.key);
      await workspace.rename!(entry.backup, entry.key);
    } else if (await exists(workspace, entry.key)) await workspace.remove(entry.key);
  }
  const folders = [...new Set(journal.entries.flatMap((entry) => entry.createsFolders ?? []))].sort(
    (a, b) => b.split('/').length - a.split('/').length,
  );
  for (const folder of folders) {
    try {
      await workspace.removeEmptyDirectory?.(folder);
    } catch {
      // Not empty or gone: leave it.
    }
  }
}

function parseJournal(text: string): CommitJournal | undefined {
  try {
    const journal = JSON.parse(text) as CommitJournal;
    if (journal.version !== 1 || !Array.isArray(journal.entries) || typeof journal.id !== 'string') return undefined;
    return journal;
  } catch {
    return undefined;
  }
}

/** What recovery did to one interrupted commit. */
interface Recovered {
  outcome: 'completed' | 'rolled back' | 'failed';
  paths: string[];
  reason?: string;
}

/** The journal `name` as it stands, or undefined when it was removed meanwhile by the commit that wrote it. */
async function readJournal(store: CommitJournalStore, name: string): Promise<CommitJournal | 'unreadable' | undefined> {
  let text: string;
  try {
    text = await store.read(name);
  } catch {
    return undefined;
  }
  return parseJournal(text) ?? 'unreadable';
}

async function recoverOne(workspace: Workspace, store: CommitJournalStore, name: string): Promise<Recovered | undefined> {
  // Journals are written whole (temp file + rename), so an unreadable one is not ours: leave it for a person to read.
  const unreadable: Recovered = { outcome: 'failed', paths: [], reason: `the journal ${store.location}/${name} cannot be read` };
  let journal = await readJournal(store, name);
  if (journal === undefined) return undefined;
  if (journal === 'unreadable') return unreadable;
  if (running.has(journal.id)) return undefined;
  if (store.claim) {
    const writer = journal.owner === undefined ? { pid: journal.pid } : { pid: journal.pid, owner: journal.owner };
    if (!(await store.claim(writer))) return undefined;
    // The claim ended what its writer left running, which may have moved the journal on (to `written`) just before.
    journal = await readJournal(store, name);
    if (journal === undefined) return undefined;
    if (journal === 'unreadable') return unreadable;
  } else if (processAlive(journal.pid)) return undefined;
  const paths = journal.entries.map((entry) => entry.key);
  try {
    if (journal.phase === 'written') await dropBackups(workspace, journal);
    else await rollBack(workspace, journal);
  } catch (error) {
    return { outcome: 'failed', paths, reason: error instanceof Error ? error.message : String(error) };
  }
  await store.remove(name);
  return { outcome: journal.phase === 'written' ? 'completed' : 'rolled back', paths };
}

function describe(recovered: Recovered): string {
  const files = recovered.paths.join(', ');
  if (recovered.outcome === 'completed') {
    return `Note: an earlier edit was interrupted (its process stopped) after writing every file and was completed; these files are as it wrote them: ${files}.`;
  }
  if (recovered.outcome === 'rolled back') {
    return `Note: an earlier edit was interrupted (its process stopped) while writing and was rolled back; these files are as before it: ${files}.`;
  }
  return `Note: an earlier edit was interrupted and could not be settled (${recovered.reason}); check ${files || 'its files'} by hand.`;
}

/**
 * Completes or rolls back every multi-file commit of `workspace` that a stopped process left half done (see
 * {@link CommitJournal}); returns one line per commit settled, for the next result. A no-op without a journal store.
 */
export async function recoverInterruptedCommits(workspace: Workspace): Promise<string[]> {
  const store = workspace.commitJournal;
  if (!store || !workspace.rename) return [];
  const lines: string[] = [];
  for (const name of await store.list()) {
    const recovered = await recoverOne(workspace, store, name);
    if (recovered) lines.push(describe(recovered));
  }
  return lines;
}
