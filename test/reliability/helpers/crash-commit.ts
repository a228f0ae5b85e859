import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { commitJournalDirectory } from '@toolhost/core/node';
import { createToolHost } from 'toolhost';

const CHILD = fileURLToPath(new URL('./crash-commit-child.ts', import.meta.url));

/** What the kills left, once a new host settled each. */
export interface CrashSummary {
  kills: number;
  /** Kills after which the files disagreed on their version: the failure this guards against. */
  mixed: number;
  /** Interrupted commits the next host completed, rolled back, or found nothing to settle (killed outside a commit). */
  completed: number;
  rolledBack: number;
  clean: number;
  /** Kills after which a backup, temp file or journal was still there once settled. */
  leftovers: number;
  problems: string[];
}

/** Options of {@link runCrashCommits}. */
export interface CrashOptions {
  kills: number;
  surface: 'apply_patch' | 'edit';
  /** Files edited by each call (default 24). */
  files?: number;
  /** Lines of each file (default 400, about 20 KiB). */
  lines?: number;
  /** Children loading ahead of their turn (default 2). */
  ahead?: number;
  /** What the children's workspace flushes (default `disk`, the default of a local workspace). */
  durability?: 'disk' | 'process';
}

/** The text of one edited file at `version` (its version on one line of its middle). */
export function fileText(lines: number, version: number): string {
  const body = Array.from({ length: lines }, (_, index) => `line ${index} of a file edited many times by one call`);
  body.splice(lines >> 1, 0, `version ${version}`);
  return `${body.join('\n')}\n`;
}

/** A child process that has loaded toolhost and waits for `go`. */
interface LoadedChild {
  child: ChildProcess;
  loaded: Promise<void>;
  output: () => string;
}

function loadChild(root: string, surface: string, stateHome: string, durability: string): LoadedChild {
  const child = spawn(process.execPath, ['--conditions=@toolhost/source', '--import', 'tsx', CHILD, root, surface, durability], {
    env: { ...process.env, XDG_STATE_HOME: stateHome },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const loaded = new Promise<void>((resolve, reject) => {
    const onData = () => {
      if (!output.includes('loaded\n')) return;
      child.stdout!.off('data', onData);
      resolve();
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the editing process ended (${code}) before it was killed: ${output}`)));
  });
  loaded.catch(() => {});
  return { child, loaded, output: () => output };
}

/** Lets a loaded child start editing; resolves with how long its first edit took once it made it. */
async function startEditing(loaded: LoadedChild): Promise<number> {
  await loaded.loaded;
  loaded.child.stdin!.write('go\n');
  return new Promise((resolve, reject) => {
    const onData = () => {
      const ready = /ready (\d+)\n/.exec(loaded.output());
      if (!ready) return;
      loaded.child.stdout!.off('data', onData);
      resolve(Number(ready[1]));
    };
    loaded.child.stdout!.on('data', onData);
    loaded.child.once('exit', (code) => reject(new Error(`the editing process ended (${code}) before it was killed: ${loaded.output()}`)));
  });
}

/** The versions found in the `f*.txt` files of `root` (one when none is half edited). */
export function versions(root: string): Set<string> {
  const found = new Set<string>();
  for (const name of readdirSync(root)) {
    if (!/^f\d+\.txt$/.test(name)) continue;
    found.add(/^version (\d+)$/m.exec(readFileSync(join(root, name), 'utf8'))?.[1] ?? 'none');
  }
  return found;
}

/**
 * Kills a process editing many files in one call with SIGKILL at a random moment, `kills` times; after each, a new host
 * opens the folder and makes one edit, whose result must say how the interrupted one was settled, and every file must
 * carry one version (wholly before or wholly after), with no backup, temp file or journal left.
 */
export async function runCrashCommits(options: CrashOptions): Promise<CrashSummary> {
  const root = mkdtempSync(join(tmpdir(), 'toolhost-crash-'));
  const stateHome = mkdtempSync(join(tmpdir(), 'toolhost-crash-state-'));
  const savedStateHome = process.env.XDG_STATE_HOME;
  process.env.XDG_STATE_HOME = stateHome;
  const summary: CrashSummary = { kills: 0, mixed: 0, completed: 0, rolledBack: 0, clean: 0, leftovers: 0, problems: [] };
  try {
    const count = options.files ?? 24;
    for (let index = 0; index < count; index++) {
      writeFileSync(join(root, `f${String(index).padStart(2, '0')}.txt`), fileText(options.lines ?? 400, 0));
    }
    const journals = commitJournalDirectory(root);
    // Children load toolhost ahead of their turn (loading is most of a child's life); each starts editing only once
    // the previous one is settled, since opening a host settles interrupted edits too.
    const ahead = options.ahead ?? 2;
    const queue: LoadedChild[] = [];
    for (let kill = 0; kill < options.kills; kill++) {
      while (queue.length < Math.min(ahead, options.kills - kill))
        queue.push(loadChild(root, options.surface, stateHome, options.durability ?? 'disk'));
      const next = queue.shift()!;
      const exited = new Promise<void>((resolve) => next.child.once('exit', () => resolve()));
      const editMs = await startEditing(next);
      // A random moment of the edit loop (two edits long): every phase of a commit is hit over many kills.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 2 * Math.max(editMs, 1)));
      next.child.kill('SIGKILL');
      await exited;
      summary.kills++;
      const host = createToolHost({ workspace: root, verification: { threshold: Infinity } });
      const probe = await host.call('apply_patch', { input: '*** Begin Patch\n*** Add File: probe.txt\n+probe\n*** End Patch' });
      await host.close();
      rmSync(join(root, 'probe.txt'), { force: true });
      const note = probe.output.split('\n')[0]!;
      if (!probe.ok) summary.problems.push(`kill ${kill}: the next edit failed: ${probe.output}`);
      if (note.includes('was completed')) summary.completed++;
      else if (note.includes('rolled back')) summary.rolledBack++;
      else summary.clean++;
      const found = versions(root);
      if (found.size !== 1) {
        summary.mixed++;
        summary.problems.push(`kill ${kill}: versions ${[...found].join(', ')} after "${note}"`);
      }
      const left = readdirSync(root).filter((name) => !/^f\d+\.txt$/.test(name));
      if (left.length > 0 || existsSync(journals)) {
        summary.leftovers++;
        summary.problems.push(`kill ${kill}: left ${[...left, ...(existsSync(journals) ? [journals] : [])].join(', ')}`);
      }
    }
    return summary;
  } finally {
    if (savedStateHome === undefined) delete process.env.XDG_STATE_HOME;
    else process.env.XDG_STATE_HOME = savedStateHome;
    rmSync(root, { recursive: true, force: true });
    rmSync(stateHome, { recursive: true, force: true });
  }
}
