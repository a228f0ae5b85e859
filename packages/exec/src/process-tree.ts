import { readdirSync, readFileSync } from 'node:fs';

/** One row of the process table, as read from `/proc/<pid>/stat`. */
export interface ProcessEntry {
  pid: number;
  ppid: number;
  pgid: number;
  sid: number;
  /** Single-letter state: R, S, D, Z (zombie), T, X, … */
  state: string;
  /** Start time in clock ticks since boot. */
  startTime: number;
}

/** Reads the Linux process table; undefined where `/proc` is unavailable. */
export function readProcessTable(): Map<number, ProcessEntry> | undefined {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return undefined;
  }
  const table = new Map<number, ProcessEntry>();
  for (const name of names) {
    const code = name.charCodeAt(0);
    if (code < 48 || code > 57) continue;
    const entry = readProcessEntry(Number(name));
    if (entry) table.set(entry.pid, entry);
  }
  return table;
}

/** Reads one process's entry; undefined when it is gone. */
export function readProcessEntry(pid: number): ProcessEntry | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return undefined;
  }
  // The command name is in parentheses and may itself contain spaces or parentheses.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { pid, state: fields[0] ?? '?', ppid: Number(fields[1]), pgid: Number(fields[2]), sid: Number(fields[3]), startTime: Number(fields[19]) };
}

/**
 * The processes belonging to the tree of `rootPid`: its process group and session (a detached spawn makes the root
 * lead both), plus every descendant by parent link, including children that moved to another group or session.
 */
export function processTreeMembers(table: Map<number, ProcessEntry>, rootPid: number): Set<number> {
  const members = new Set<number>();
  for (const entry of table.values()) {
    if (entry.pid === rootPid || entry.pgid === rootPid || entry.sid === rootPid) members.add(entry.pid);
  }
  const children = new Map<number, number[]>();
  for (const entry of table.values()) {
    const list = children.get(entry.ppid);
    if (list) list.push(entry.pid);
    else children.set(entry.ppid, [entry.pid]);
  }
  const queue = [...members];
  while (queue.length > 0) {
    const pid = queue.pop()!;
    for (const child of children.get(pid) ?? []) {
      if (!members.has(child)) {
        members.add(child);
        queue.push(child);
      }
    }
  }
  members.delete(process.pid);
  return members;
}

/** True while any process of the group led by `pgid` exists (zombies included). */
export function processGroupExists(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Already gone.
  }
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const isAlive = (entry: ProcessEntry | undefined) => entry !== undefined && entry.state !== 'Z' && entry.state !== 'X';

/** True once `pid` is reaped, or is a zombie that no live member of the tree will reap. */
function settled(pid: number, members: Set<number>): boolean {
  const entry = readProcessEntry(pid);
  if (!entry) return true;
  if (isAlive(entry)) return false;
  return !(members.has(entry.ppid) && isAlive(readProcessEntry(entry.ppid)));
}

/**
 * Kills the whole tree of `rootPid` with SIGKILL, leaves first and oldest first, one at a time, waiting for each to be
 * reaped by its parent while that parent still lives. A shell thus reaps its background children before its foreground
 * child dies and it exits, so nothing is orphaned as a zombie (orphans adopted by an init that does not reap are beyond
 * our reach). Falls back to killing the process group where `/proc` is unavailable. Not on any hot path: it polls `/proc`.
 */
export async function killProcessTree(rootPid: number, options: { reapWaitMs?: number; maxRounds?: number; deadlineMs?: number } = {}): Promise<void> {
  const reapWaitMs = options.reapWaitMs ?? 150;
  const maxRounds = options.maxRounds ?? 32;
  const deadline = Date.now() + (options.deadlineMs ?? 3_000);
  if (!Number.isInteger(rootPid) || rootPid <= 1 || rootPid === process.pid) return;
  for (let round = 0; round < maxRounds && Date.now() < deadline; round++) {
    const table = readProcessTable();
    if (!table) break;
    const members = processTreeMembers(table, rootPid);
    const alive = [...members].map((pid) => table.get(pid)!).filter(isAlive);
    if (alive.length === 0) return;
    const parents = new Set(alive.map((entry) => entry.ppid));
    let leaves = alive.filter((entry) => !parents.has(entry.pid));
    if (leaves.length === 0) leaves = alive;
    leaves.sort((a, b) => a.startTime - b.startTime || a.pid - b.pid);
    for (const leaf of leaves) {
      signal(leaf.pid, 'SIGKILL');
      if (Date.now() >= deadline) continue;
      const waitUntil = Math.min(deadline, Date.now() + reapWaitMs);
      while (!settled(leaf.pid, members) && Date.now() < waitUntil) await delay(2);
    }
  }
  signal(-rootPid, 'SIGKILL');
  signal(rootPid, 'SIGKILL');
}
