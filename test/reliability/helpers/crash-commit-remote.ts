import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Dockerode from 'dockerode';
import type { Environment } from '@toolhost/core';
import { createDockerEnvironment } from '@toolhost/docker';
import { createSshEnvironment } from '@toolhost/ssh';
import { createToolHost } from 'toolhost';
import { probeWith, sshSettings } from '../../environments/engines.js';
import { fileText, versions, type CrashSummary } from './crash-commit.js';

const CHILD = fileURLToPath(new URL('./crash-commit-remote-child.ts', import.meta.url));

/** Where the edited files are: a folder of this machine that the container (bind-mounted at the same path) or sshd sees. */
export interface RemoteCrashTarget {
  engine: 'docker' | 'ssh';
  root: string;
  /** The container's id (docker). */
  container?: string;
}

/** A new environment over the target (a host owns and closes it). */
export function openRemote(target: RemoteCrashTarget): Promise<Environment> {
  return target.engine === 'docker'
    ? createDockerEnvironment({ container: target.container!, root: target.root })
    : createSshEnvironment({ ...sshSettings()!, root: target.root });
}

/** A child that has opened its environment and waits for `go`. */
interface LoadedChild {
  child: ChildProcess;
  loaded: Promise<void>;
  /** Resolves with how long the first edit took, once the child made it. */
  ready(): Promise<number>;
}

/** Children not yet ended, so a run cut short (a test's timeout) can still end them. */
const children = new Set<ChildProcess>();

/** Kills every editing child still running (after a run was cut short). */
export function killCrashChildren(): void {
  for (const child of children) child.kill('SIGKILL');
}

function loadChild(target: RemoteCrashTarget): LoadedChild {
  const child = spawn(process.execPath, ['--conditions=@toolhost/source', '--import', 'tsx', CHILD, JSON.stringify(target)], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const ended = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`the editing process ended (${code}) before it was killed: ${output}`))),
  );
  ended.catch(() => {});
  const seen = (pattern: RegExp) =>
    Promise.race([
      ended,
      new Promise<RegExpExecArray>((resolve) => {
        const onData = () => {
          const found = pattern.exec(output);
          if (!found) return;
          child.stdout!.off('data', onData);
          resolve(found);
        };
        child.stdout!.on('data', onData);
        onData();
      }),
    ]);
  const loaded = seen(/loaded\n/).then(() => undefined);
  loaded.catch(() => {});
  return { child, loaded, ready: () => seen(/ready (\d+)\n/).then((found) => Number(found[1])) };
}

/** The container a Docker target edits in: the test image, no network, the folder bind-mounted at its own path. */
export async function startCrashContainer(root: string): Promise<{ id: string; remove: () => Promise<void> }> {
  const container = await new Dockerode().createContainer({
    Image: process.env.TOOLHOST_TEST_DOCKER_IMAGE ?? 'toolhost-test:busybox',
    Cmd: ['/bin/sh', '-c', 'exec sleep 100000'],
    HostConfig: { NetworkMode: 'none', Binds: [`${root}:${root}`] },
  });
  await container.start();
  return { id: container.id, remove: () => container.remove({ force: true }).then(() => undefined) };
}

/** A folder every user can write (the SSH test user is not this process's user), with `files` files at version 0. */
export function createCrashFolder(files = 24, lines = 400): string {
  const previous = process.umask(0);
  try {
    const root = mkdtempSync(join(tmpdir(), 'toolhost-crash-remote-'));
    chmodSync(root, 0o777);
    for (let index = 0; index < files; index++) {
      writeFileSync(join(root, `f${String(index).padStart(2, '0')}.txt`), fileText(lines, 0), { mode: 0o666 });
    }
    return root;
  } finally {
    process.umask(previous);
  }
}

/** Removes the folder (again while a killed child's last request still lands in it). */
export function removeCrashFolder(root: string): void {
  rmSync(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
}

/**
 * Kills a process editing every file of `target` in one call (a host on the remote environment) with SIGKILL at a random
 * moment, `kills` times; after each, a new host opens the same remote workspace and makes one edit, whose result must
 * say how the interrupted one was settled; every file must carry one version, and neither the workspace nor the
 * journal folder on the remote may keep a backup, temp file or journal.
 */
export async function runRemoteCrashCommits(target: RemoteCrashTarget, options: { kills: number; ahead?: number }): Promise<CrashSummary> {
  const summary: CrashSummary = { kills: 0, mixed: 0, completed: 0, rolledBack: 0, clean: 0, leftovers: 0, problems: [] };
  const queue: LoadedChild[] = [];
  try {
    for (let kill = 0; kill < options.kills; kill++) {
      while (queue.length < Math.min(options.ahead ?? 2, options.kills - kill)) queue.push(loadChild(target));
      const next = queue.shift()!;
      const exited = new Promise<void>((resolve) => next.child.once('exit', () => resolve()));
      await next.loaded;
      next.child.stdin!.write('go\n');
      const editMs = await next.ready();
      // A random moment of the edit loop (two edits long): every phase of a commit is hit over many kills.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 2 * Math.max(editMs, 1)));
      next.child.kill('SIGKILL');
      await exited;
      summary.kills++;
      const environment = await openRemote(target);
      const host = createToolHost({ environment, verification: { threshold: Infinity } });
      try {
        const result = await host.call('apply_patch', { input: '*** Begin Patch\n*** Add File: probe.txt\n+probe\n*** End Patch' });
        await environment.workspace.remove('probe.txt');
        const note = result.output.split('\n')[0]!;
        if (!result.ok) summary.problems.push(`kill ${kill}: the next edit failed: ${result.output}`);
        if (note.includes('was completed')) summary.completed++;
        else if (note.includes('rolled back')) summary.rolledBack++;
        else summary.clean++;
        const found = versions(target.root);
        if (found.size !== 1) {
          summary.mixed++;
          summary.problems.push(`kill ${kill}: versions ${[...found].join(', ')} after "${note}"`);
        }
        const journals = environment.workspace.commitJournal!.location;
        const left = [
          ...readdirSync(target.root).filter((name) => !/^f\d+\.txt$/.test(name)),
          ...(await probeWith(environment, `[ -e '${journals}' ] && echo '${journals}' || true`)).output.split('\n').filter(Boolean),
        ];
        if (left.length > 0 || !journals.startsWith('/')) {
          summary.leftovers++;
          summary.problems.push(`kill ${kill}: left ${left.join(', ') || `the journals at ${journals}`}`);
        }
      } finally {
        await host.close();
      }
    }
    return summary;
  } finally {
    for (const waiting of queue) waiting.child.kill('SIGKILL');
  }
}
