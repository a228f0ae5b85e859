import { readdirSync, readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** A live process whose command line or environment carries a marker. */
export interface MarkedProcess {
  pid: number;
  cmdline: string;
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'latin1');
  } catch {
    return undefined;
  }
}

/** One live process as read from /proc. */
interface ProcessSnapshot {
  pid: number;
  cmdline: string;
  environ: string;
}

/** True while the process runs (a zombie waiting for its reaper counts as gone). */
export function isProcessAlive(pid: number): boolean {
  const status = readText(`/proc/${pid}/status`);
  return status !== undefined && !/^State:\s+Z/m.test(status);
}

/** Ids of every live (non-zombie) process but this one. */
function liveProcessIds(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => pid !== process.pid && isProcessAlive(pid));
}

/** Reads every live (non-zombie) process but this one. */
function scanProcesses(): ProcessSnapshot[] {
  return liveProcessIds().map((pid) => ({
    pid,
    cmdline: readText(`/proc/${pid}/cmdline`) ?? '',
    environ: readText(`/proc/${pid}/environ`) ?? '',
  }));
}

/** Live processes (zombies excluded) whose argument list is exactly `argv`. */
export function processesWithArguments(argv: readonly string[]): number[] {
  const expected = `${argv.join('\0')}\0`;
  return liveProcessIds().filter((pid) => readText(`/proc/${pid}/cmdline`) === expected);
}

/** Number of threads of this process (a worker thread is one of them). */
export function threadCount(): number {
  return readdirSync('/proc/self/task').length;
}

/** Processes (zombies excluded) whose /proc cmdline or environ contains `marker`. */
export function findMarkedProcesses(marker: string): MarkedProcess[] {
  return findMarkedProcessesOf([marker]).get(marker)!;
}

/** One /proc scan for many markers: the processes carrying each. */
export function findMarkedProcessesOf(markers: readonly string[]): Map<string, MarkedProcess[]> {
  const result = new Map<string, MarkedProcess[]>(markers.map((marker) => [marker, []]));
  for (const snapshot of scanProcesses()) {
    for (const marker of markers) {
      if (snapshot.cmdline.includes(marker) || snapshot.environ.includes(marker)) {
        result.get(marker)!.push({ pid: snapshot.pid, cmdline: snapshot.cmdline.replace(/\0/g, ' ').trim() });
      }
    }
  }
  return result;
}

/** Kills leftovers a failed test may have left behind (only processes carrying this run's marker). */
export function killMarkedProcesses(marker: string): number {
  let killed = 0;
  for (const { pid } of findMarkedProcesses(marker)) {
    try {
      process.kill(pid, 'SIGKILL');
      killed++;
    } catch {
      // already gone
    }
  }
  return killed;
}

/** Number of open file descriptors of this process. */
export function countOpenFds(): number {
  return readdirSync('/proc/self/fd').length;
}

/** Polls `read` until `done` accepts its value or the deadline passes (for state with no event, like /proc); returns the last value. */
export async function settle<T>(read: () => T, done: (value: T) => boolean, deadlineMs = 10_000): Promise<T> {
  const end = Date.now() + deadlineMs;
  let value = read();
  while (!done(value) && Date.now() < end) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    value = read();
  }
  return value;
}

let collect: (() => void) | undefined;

/** Runs a full garbage collection (exposes `gc` on first use). */
export function collectGarbage(): void {
  if (!collect) {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
  }
  collect();
  collect();
}

/** Heap used after a full collection, in bytes. */
export function settledHeapUsed(): number {
  collectGarbage();
  return process.memoryUsage().heapUsed;
}
