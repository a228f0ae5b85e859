import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Environment, ExecProcess, ProcessExit } from '@toolhost/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { skipWhen } from '../../../test/skip-reason.js';
import { createLocalTransport } from './__fixtures__/local-transport.js';
import { createRemoteEnvironment, type RemoteChannel, type RemoteTransport } from './index.js';

/**
 * The local transport, except that its first `lost` one-off scripts end at once with only `said` on stdout, as an
 * exec that an engine under load failed to start does.
 */
function losingTransport(lost: number, said: string): RemoteTransport & { started: string[] } {
  const inner = createLocalTransport();
  let toLose = lost;
  return {
    ...inner,
    async start(request): Promise<RemoteChannel> {
      if (request.role !== 'script' || toLose === 0) return inner.start(request);
      toLose--;
      inner.started.push('lost script');
      const stdout: Array<(chunk: Buffer) => void> = [];
      const close: Array<() => void> = [];
      setImmediate(() => {
        for (const listener of stdout) listener(Buffer.from(said));
        for (const listener of close) listener();
      });
      return {
        onStdout: (listener) => void stdout.push(listener),
        onStderr: () => undefined,
        onExit: () => undefined,
        onClose: (listener) => void close.push(listener),
        write: () => undefined,
        endInput: () => undefined,
        pause: () => undefined,
        resume: () => undefined,
        resize: async () => undefined,
        close: () => undefined,
      };
    },
  };
}

// The kit's scripts are POSIX sh over /proc, so this Linux machine serves as a remote reached through a transport.
const linux = process.platform === 'linux' && existsSync('/proc/self/stat');

/** Collects a process's output and waits for it to settle. */
function collect(child: ExecProcess): Promise<{ output: string; exit: ProcessExit }> {
  const chunks: Buffer[] = [];
  child.onData((chunk) => chunks.push(Buffer.from(chunk)));
  return new Promise((resolve) => child.onSettled((exit) => resolve({ output: Buffer.concat(chunks).toString('utf8'), exit })));
}

describe(
  'createRemoteEnvironment over a transport of one file',
  skipWhen(linux ? undefined : 'the remote scripts read /proc: Linux only'),
  () => {
    let root: string;
    let environment: Environment | undefined;

    beforeEach(async () => {
      root = await mkdtemp(join(tmpdir(), 'toolhost-remote-'));
    });

    afterEach(async () => {
      await environment?.close();
      environment = undefined;
      await rm(root, { recursive: true, force: true });
    });

    it('serves files through helper shells: atomic writes, reads, listings, stats, real paths and errno codes', async () => {
      const transport = createLocalTransport();
      environment = await createRemoteEnvironment(transport, { root, helperShells: 2 });
      expect(environment.kind).toBe('local-sh');
      await environment.workspace.writeFile('src/a.txt', Buffer.from('one\ntwo\n'));
      expect(await readFile(join(root, 'src/a.txt'), 'utf8')).toBe('one\ntwo\n');
      await writeFile(join(root, 'b.txt'), 'from the side');
      expect(Buffer.from(await environment.workspace.readFile('b.txt')).toString('utf8')).toBe('from the side');
      expect((await environment.workspace.readdir('')).map((entry) => `${entry.kind} ${entry.name}`).sort()).toEqual([
        'directory src',
        'file b.txt',
      ]);
      expect(await environment.workspace.stat('src/a.txt')).toMatchObject({ kind: 'file', size: 8 });
      expect(await environment.workspace.stat('missing')).toBeUndefined();
      expect(await environment.workspace.realpath('src/a.txt')).toEqual({ inside: true, path: 'src/a.txt' });
      await expect(environment.workspace.readFile('src')).rejects.toMatchObject({ code: 'EISDIR' });
      // The probe ran as a one-off script; file operations went to helper shells, never one process each.
      expect(transport.started.filter((role) => role === 'shell').length).toBeGreaterThan(0);
      expect(transport.started.filter((role) => role === 'script')).toEqual(['script']);
    });

    it('runs a command with its variables and folder, reports its exit code, and kills a running one by its marker', async () => {
      environment = await createRemoteEnvironment(createLocalTransport(), { root });
      const executor = environment.processes.executor('pipe');
      const shell = environment.processes.shell('unix_like', 'echo "$GREETING from $(pwd)"; echo oops >&2; exit 3', {});
      if (!shell.ok) throw new Error(shell.message);
      const done = await collect(
        await executor.spawn({ ...shell, cwd: root, env: { GREETING: 'hello', TOOLHOST_SESSION: 'kit-1' }, rows: 24, cols: 80 }),
      );
      expect(done).toEqual({ output: `hello from ${root}\noops\n`, exit: { exitCode: 3 } });

      const sleeper = environment.processes.shell('unix_like', 'sleep 30 & sleep 30', {});
      if (!sleeper.ok) throw new Error(sleeper.message);
      const child = await executor.spawn({ ...sleeper, cwd: root, env: { TOOLHOST_SESSION: 'kit-2' }, rows: 24, cols: 80 });
      const settled = collect(child);
      await expect.poll(() => environment!.processes.hasProcesses(child, 'kit-2')).toBe(true);
      await child.kill();
      expect((await settled).exit).toEqual({ exitCode: 137, signal: 'SIGKILL' });
      expect(await environment.processes.hasProcesses(child, 'kit-2')).toBe(false);
    });

    it('starts the first probe again when the engine lost it before it reported, and quotes the engine when it always does', async () => {
      const flaky = losingTransport(1, 'OCI runtime exec failed: context deadline exceeded');
      environment = await createRemoteEnvironment(flaky, { root });
      expect(flaky.started.slice(0, 2)).toEqual(['lost script', 'script']);
      expect(await environment.workspace.stat('')).toMatchObject({ kind: 'directory' });

      const broken = losingTransport(Infinity, 'OCI runtime exec failed: context deadline exceeded');
      await expect(createRemoteEnvironment(broken, { root })).rejects.toThrow(
        'the helper ended without reporting (the local shell may have been killed): OCI runtime exec failed: context deadline exceeded',
      );
      expect(broken.started).toEqual(['lost script', 'lost script', 'lost script']);
    });

    it('refuses a root that is not a folder, naming the transport’s place; PowerShell is refused the same way', async () => {
      await expect(createRemoteEnvironment(createLocalTransport(), { root: join(root, 'absent') })).rejects.toThrow(
        `${join(root, 'absent')} is not a folder on this machine`,
      );
      environment = await createRemoteEnvironment(createLocalTransport(), { root });
      expect(environment.processes.shell('powershell', 'Get-Date', {})).toEqual(
        existsSync('/usr/bin/pwsh')
          ? expect.objectContaining({ ok: true })
          : {
              ok: false,
              message:
                'PowerShell (pwsh) is not installed on this machine, so the command could not start. Use the unix_like shell profile.',
            },
      );
    });
  },
);
