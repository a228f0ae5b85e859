import { createHash, randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { CommitJournalStore } from './workspace.js';
import { isMissing } from './node-optional.js';

/** toolhost's state folder on this machine: `$XDG_STATE_HOME/toolhost`, else `~/.local/state/toolhost`. */
export function toolhostStateDirectory(): string {
  const base = process.env.XDG_STATE_HOME || join(homedir(), '.local', 'state');
  return join(base, 'toolhost');
}

/** The journal folder of the workspace whose real root is `realRoot`: one folder a workspace, named by a hash of it. */
export function commitJournalDirectory(realRoot: string, stateDirectory = toolhostStateDirectory()): string {
  return join(stateDirectory, 'commits', createHash('sha256').update(realRoot).digest('hex').slice(0, 24));
}

function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function removeFolder(directory: string): Promise<void> {
  try {
    await fs.rmdir(directory);
  } catch {
    // Other journals are in it (or it is gone already): it stays for them.
  }
}

async function syncFolder(folder: string): Promise<void> {
  const handle = await fs.open(folder, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function writeJournalFile(directory: string, name: string, text: string, flush: boolean): Promise<void> {
  await fs.mkdir(directory, { recursive: true, mode: 0o700 });
  // The writer's pid in the name lets a later list() sweep a temp file its killed writer left.
  const temp = join(directory, `.${randomBytes(6).toString('hex')}.${process.pid}.tmp`);
  const handle = await fs.open(temp, 'wx', 0o600);
  try {
    await handle.writeFile(text);
    if (flush) await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.rename(temp, join(directory, name));
  if (flush) await syncFolder(directory);
}

/** Options of {@link createFolderJournalStore}. */
export interface FolderJournalStoreOptions {
  /** Flush each journal (file and folder) before `write` returns (default true); without, it outlives only a process. */
  flush?: boolean;
}

/**
 * A journal store in a folder on this machine; writes are flushed (file and folder) before they return unless told not
 * to, and the folder is removed with its last journal, so nothing is left after clean commits.
 */
export function createFolderJournalStore(directory: string, options: FolderJournalStoreOptions = {}): CommitJournalStore {
  const flush = options.flush ?? true;
  return {
    location: directory,
    async list() {
      let names: string[];
      try {
        names = await fs.readdir(directory);
      } catch (error) {
        if (isMissing(error)) return [];
        throw error;
      }
      let swept = 0;
      for (const name of names) {
        const writer = /^\.[0-9a-f]+\.(\d+)\.tmp$/.exec(name);
        if (!writer || processAlive(Number(writer[1]))) continue;
        await fs.rm(join(directory, name), { force: true });
        swept++;
      }
      // Nothing, or only a killed writer's temp file, was there (a writer killed between its mkdir and its write leaves
      // the folder empty): the folder goes, as after a clean commit. A live writer racing this makes it again.
      if (swept === names.length) await removeFolder(directory);
      return names.filter((name) => name.endsWith('.json'));
    },
    read: (name) => fs.readFile(join(directory, name), 'utf8'),
    async write(name, text) {
      try {
        await writeJournalFile(directory, name, text, flush);
      } catch (error) {
        // Another commit removed the folder with its last journal between our mkdir and our write: make it again.
        if (!isMissing(error)) throw error;
        await writeJournalFile(directory, name, text, flush);
      }
    },
    async remove(name) {
      await fs.rm(join(directory, name), { force: true });
      await removeFolder(directory);
    },
  };
}
