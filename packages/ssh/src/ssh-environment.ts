import type { ConnectConfig, SFTPWrapper } from 'ssh2';
import { ToolHostError, remoteFindScript, remoteKillScript, type Environment, type EnvironmentProcesses, type Executor } from '@toolhost/core';
import { createSftpWorkspace } from './sftp-workspace.js';
import { createSshExecutor, runSshScript } from './ssh-exec.js';
import { SshPool } from './ssh-pool.js';

/** Options of {@link createSshEnvironment}. */
export interface SshEnvironmentOptions {
  /** Host name or address of the SSH server. */
  host: string;
  /** Default 22. */
  port?: number;
  /** The login user (a non-root user lets OpenSSH separate privileges). */
  username: string;
  /** A private key (PEM or OpenSSH format); or use `agent`. */
  privateKey?: string | Buffer;
  /** Passphrase of an encrypted `privateKey`. */
  passphrase?: string;
  /** Path of an ssh-agent socket (e.g. `process.env.SSH_AUTH_SOCK`). */
  agent?: string;
  /** Absolute path of an existing folder on the host: the workspace. */
  root: string;
  /** Checks the host key; strongly advised outside tests (see ssh2's `hostVerifier`). */
  hostVerifier?: ConnectConfig['hostVerifier'];
  /** More ssh2 connection settings (algorithms, timeouts, …). */
  connect?: ConnectConfig;
  /** Most channels opened on one connection before another is opened (default 10, OpenSSH's MaxSessions). */
  channelsPerConnection?: number;
}

/** The environment of an SSH host. */
export interface SshEnvironment extends Environment {
  /** Always `ssh`. */
  readonly kind: 'ssh';
}

/**
 * Works on an SSH host: commands through exec channels (with a PTY for `tty:true`), files over SFTP (temp file + atomic
 * posix-rename), kills and marker scans through a second channel; connections are pooled below OpenSSH's MaxSessions.
 *
 * @example
 * ```ts
 * import { readFileSync } from 'node:fs';
 * import { createSshEnvironment } from '@toolhost/ssh';
 * import { createToolHost } from 'toolhost';
 *
 * const environment = await createSshEnvironment({ host: 'build-1', username: 'agent', privateKey: readFileSync('/home/me/.ssh/id_ed25519'), root: '/srv/repo' });
 * const host = createToolHost({ environment });
 * ```
 */
export async function createSshEnvironment(options: SshEnvironmentOptions): Promise<SshEnvironment> {
  if (!options || typeof options.root !== 'string' || !options.root.startsWith('/')) {
    throw new ToolHostError('invalid_options', `root must be an absolute path on the SSH host, got ${JSON.stringify(options?.root)}`);
  }
  if (typeof options.host !== 'string' || typeof options.username !== 'string') throw new ToolHostError('invalid_options', 'host and username are required');
  if (options.privateKey === undefined && options.agent === undefined && options.connect?.password === undefined) {
    throw new ToolHostError('invalid_options', 'give privateKey or agent to log in');
  }
  const pool = new SshPool(
    {
      ...options.connect,
      host: options.host,
      port: options.port ?? 22,
      username: options.username,
      ...(options.privateKey === undefined ? {} : { privateKey: options.privateKey, passphrase: options.passphrase }),
      ...(options.agent === undefined ? {} : { agent: options.agent }),
      ...(options.hostVerifier === undefined ? {} : { hostVerifier: options.hostVerifier }),
    },
    Math.max(2, Math.floor(options.channelsPerConnection ?? 10)),
  );
  let probe;
  try {
    probe = await runSshScript(pool, '[ -d "$1" ] || exit 2\nreadlink -f -- "$1"\ncommand -v bash || echo\ncommand -v pwsh || echo', [options.root]);
    if (probe.exitCode !== 0) throw new Error(probe.exitCode === 2 ? `${options.root} is not a folder on ${options.host}` : probe.stderr.trim() || `exit code ${probe.exitCode}`);
  } catch (error) {
    pool.close();
    throw new ToolHostError('invalid_options', `SSH environment could not start: ${error instanceof Error ? error.message : String(error)}`);
  }
  const [realRoot = options.root, bash = '', pwsh = ''] = probe.stdout.toString('utf8').split('\n');
  let sftp: Promise<SFTPWrapper> | undefined;
  const session = () => {
    sftp ??= pool.sftp().then(({ sftp: opened, lost }) => {
      void lost.then(() => (sftp = undefined));
      return opened;
    });
    sftp.catch(() => (sftp = undefined));
    return sftp;
  };
  const executors: Record<'pipe' | 'pty', Executor> = { pipe: createSshExecutor(pool, 'pipe'), pty: createSshExecutor(pool, 'pty') };
  const processes: EnvironmentProcesses = {
    baseEnvironment: () => ({}),
    executor: (kind) => executors[kind],
    shell(kind, cmd) {
      if (kind === 'powershell') {
        if (!pwsh) return { ok: false, message: `PowerShell (pwsh) is not installed on ${options.host}, so the command could not start. Use the unix_like shell profile.` };
        return { ok: true, file: pwsh, args: ['-NoProfile', '-Command', cmd] };
      }
      return { ok: true, file: bash || '/bin/sh', args: ['-c', cmd] };
    },
    async hasProcesses(_child, marker) {
      const outcome = await runSshScript(pool, remoteFindScript({ exact: marker })).catch(() => undefined);
      return outcome?.exitCode === 0;
    },
    async killMarked(match) {
      await runSshScript(pool, remoteKillScript(match)).catch(() => undefined);
    },
  };
  let closing: Promise<void> | undefined;
  return {
    kind: 'ssh',
    platform: 'linux',
    workspace: createSftpWorkspace(options.root, realRoot, session, (script, args) => runSshScript(pool, script, args)),
    processes,
    close() {
      closing ??= (async () => {
        pool.close();
      })();
      return closing;
    },
  };
}
