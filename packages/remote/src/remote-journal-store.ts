import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import type { CommitJournalStore, Workspace } from '@toolhost/core';
import { HELPER_VARIABLE, killMarkedScript } from './remote-scripts.js';
import type { ScriptOutcome, ScriptRunner } from './script-runner.js';

/** Options of {@link createRemoteJournalStore}. */
export interface RemoteJournalStoreOptions {
  /** The workspace's real root on the remote: its journals' folder is named by a hash of it. */
  realRoot: string;
  /** This host's tag ({@link newHelperOwner}), which its helper processes carry as `TOOLHOST_HELPER`. */
  owner: string;
  /** Runs a script as the helpers do (same user): it finds the state folder. */
  run: ScriptRunner;
  /** Runs a script as a process of its own, never queued behind the helpers: it stops a dead host's helpers. */
  runOnce: ScriptRunner;
  /** The remote's files seen from a folder, reached as the workspace's are (helper scripts, or SFTP). */
  files(folder: string): Workspace;
  /** Where the remote is, as a phrase (`in the container`, `on build-1`), for messages. */
  place: string;
}

/**
 * POSIX sh that prints the journal folder of the workspace hash `$1` (without making it):
 * `${XDG_STATE_HOME:-$HOME/.local/state}/toolhost/commits/$1`, or `/tmp/toolhost-<uid>/commits/$1` where the state folder
 * cannot be made or written (no home); the fallback is the user's own, mode 700, never a symlink.
 */
const LOCATE_SCRIPT = [
  'b=${XDG_STATE_HOME:-${HOME:+$HOME/.local/state}}',
  'case $b in /*) ;; *) b= ;; esac',
  'if [ -n "$b" ] && mkdir -p -- "$b/toolhost/commits" 2>/dev/null && [ -w "$b/toolhost/commits" ]; then',
  '  d=$b/toolhost/commits',
  'else',
  '  u=/tmp/toolhost-$(id -u)',
  '  mkdir -m 700 -- "$u" 2>/dev/null',
  '  { [ -d "$u" ] && [ ! -L "$u" ] && [ -O "$u" ]; } || exit 13',
  '  mkdir -p -- "$u/commits" || exit 13',
  '  d=$u/commits',
  'fi',
  'printf "%s/%s" "$d" "$1"',
].join('\n');

function bootId(): string {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return '';
  }
}

/**
 * A short tag of this machine (its name and, on Linux, its boot), so a journal's writer pid is only ever checked where
 * it means that process.
 */
const MACHINE = createHash('sha256').update(`${hostname()}\n${bootId()}`).digest('hex').slice(0, 8);

/** A fresh tag for one host's remote environment: `<machine>-<pid>-<random>`. */
export function newHelperOwner(): string {
  return `${MACHINE}-${process.pid}-${randomBytes(4).toString('hex')}`;
}

const OWNER = /^([0-9a-f]{8})-(\d+)-[0-9a-f]+$/;
/** The temp file a journal write goes through: `.<owner>.<random>.tmp`, so a dead writer's is known and swept. */
const JOURNAL_TEMP = /^\.([0-9a-f]{8}-\d+-[0-9a-f]+)\.[0-9a-f]+\.tmp$/;

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * True when the host that wrote under `owner` is known to have stopped: a process of this machine (the only place its
 * pid can be checked) that no longer runs. Another machine's host, or another environment of this process, may run.
 */
function ownerGone(owner: string): boolean {
  const parsed = OWNER.exec(owner);
  if (!parsed || parsed[1] !== MACHINE) return false;
  const pid = Number(parsed[2]);
  return pid !== process.pid && !processAlive(pid);
}

const isMissing = (error: unknown) => (error as { code?: unknown })?.code === 'ENOENT';

function outcomeText(outcome: ScriptOutcome): string {
  return outcome.stderr.trim() || `exit code ${outcome.exitCode}`;
}

/**
 * The journal store of a remote workspace, kept on the remote machine (so any host that reaches it can settle an
 * interrupted commit): one folder a workspace under the remote user's state folder, written through the remote's own
 * file operations, flushed and renamed into place. Journals record this host's tag; {@link CommitJournalStore.claim}
 * settles those of a host of this machine that stopped, once its helper processes still running on the remote (a
 * write the host sent before it died) are killed.
 */
export function createRemoteJournalStore(options: RemoteJournalStoreOptions): CommitJournalStore {
  const hash = createHash('sha256').update(options.realRoot).digest('hex').slice(0, 24);
  let folder: string | undefined;
  let files: Promise<Workspace> | undefined;
  const journals = (): Promise<Workspace> => {
    files ??= options.run(LOCATE_SCRIPT, [hash]).then((outcome) => {
      if (outcome.exitCode !== 0) throw new Error(`no folder for edit journals ${options.place} (${outcomeText(outcome)})`);
      folder = outcome.stdout.toString('utf8');
      return options.files(folder);
    });
    files.catch(() => (files = undefined));
    return files;
  };
  const fenced = new Set<string>();
  const fence = async (owner: string): Promise<void> => {
    if (fenced.has(owner)) return;
    const outcome = await options.runOnce(killMarkedScript({ exact: owner }, HELPER_VARIABLE, false), []);
    if (outcome.exitCode !== 0)
      throw new Error(`the helpers of a stopped host ${options.place} could not be ended (${outcomeText(outcome)})`);
    fenced.add(owner);
  };
  const removeFolder = async (workspace: Workspace) => {
    // Other journals are in it, or it is gone already: it stays for them.
    await workspace.removeEmptyDirectory?.('').catch(() => undefined);
  };
  const writeOnce = async (name: string, text: string) => {
    const temp = `.${options.owner}.${randomBytes(6).toString('hex')}.tmp`;
    await (await journals()).writeFile(name, new TextEncoder().encode(text), { mode: 0o600, durable: true, tempName: temp });
  };
  return {
    get location() {
      return folder ?? `toolhost/commits/${hash} in the state folder ${options.place}`;
    },
    owner: options.owner,
    async list() {
      const workspace = await journals();
      let entries;
      try {
        entries = await workspace.readdir('');
      } catch (error) {
        if (isMissing(error)) return [];
        throw error;
      }
      let swept = 0;
      for (const entry of entries) {
        const writer = JOURNAL_TEMP.exec(entry.name);
        if (!writer || !ownerGone(writer[1]!)) continue;
        await fence(writer[1]!);
        await workspace.remove(entry.name).catch((error: unknown) => {
          if (!isMissing(error)) throw error;
        });
        swept++;
      }
      // Nothing, or only a stopped writer's temp file, was there: the folder goes, as after a clean commit.
      if (swept === entries.length) await removeFolder(workspace);
      // A stopped writer's helper may have renamed its temp file into a journal before it was ended: listed afresh.
      if (swept > 0) entries = await workspace.readdir('').catch(() => []);
      return entries.filter((entry) => entry.name.endsWith('.json')).map((entry) => entry.name);
    },
    read: async (name) => Buffer.from(await (await journals()).readFile(name)).toString('utf8'),
    async write(name, text) {
      // A commit that removed the folder with its last journal between this write's mkdir and its temp file: again.
      await writeOnce(name, text).catch(() => writeOnce(name, text));
    },
    async remove(name) {
      const workspace = await journals();
      try {
        await workspace.remove(name);
      } catch (error) {
        if (!isMissing(error)) throw error;
      }
      await removeFolder(workspace);
    },
    async claim(writer) {
      // This host's own journal, its commit no longer running here (a failed settle): to settle now.
      if (writer.owner === options.owner) return true;
      if (writer.owner === undefined || !ownerGone(writer.owner)) return false;
      await fence(writer.owner);
      return true;
    },
  };
}
