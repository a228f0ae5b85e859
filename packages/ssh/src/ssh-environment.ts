import type { ConnectConfig, ServerHostKeyAlgorithm, SFTPWrapper } from 'ssh2';
import {
  ToolHostError,
  remoteFindScript,
  remoteKillScript,
  type Environment,
  type EnvironmentProcesses,
  type Executor,
} from '@toolhost/core';
import { createHostKeyPolicy } from './host-key-policy.js';
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
  /**
   * known_hosts to check the host key against, in OpenSSH's format: a file path or a file's text, or an array of them.
   * Default: OpenSSH's files, `~/.ssh/known_hosts`, `~/.ssh/known_hosts2`, `/etc/ssh/ssh_known_hosts` and
   * `/etc/ssh/ssh_known_hosts2`. A host they do not list (`host_key_unknown`), a key other than the listed ones
   * (`host_key_changed`) and a key marked `@revoked` (`host_key_revoked`) are refused before any command runs.
   */
  knownHosts?: string | readonly string[];
  /**
   * The host's public key (`ssh-ed25519 AAAA…` as in its `/etc/ssh/ssh_host_*_key.pub`, or the base64 alone) or its
   * `SHA256:…` fingerprint, or several: any other key is refused (`host_key_changed`). Replaces known_hosts.
   */
  hostKey?: string | readonly string[];
  /** Decides on the host key instead (ssh2's `hostVerifier`); takes precedence over `knownHosts` and `hostKey`. */
  hostVerifier?: ConnectConfig['hostVerifier'];
  /** Trusts whatever key the host offers, so anyone on the network path can pose as the host: for tests only. */
  insecureAcceptAnyHostKey?: boolean;
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

/** ssh2's default host key algorithms, in its order. */
const HOST_KEY_ALGORITHMS: readonly ServerHostKeyAlgorithm[] = [
  'ssh-ed25519',
  'ecdsa-sha2-nistp256',
  'ecdsa-sha2-nistp384',
  'ecdsa-sha2-nistp521',
  'rsa-sha2-512',
  'rsa-sha2-256',
  'ssh-rsa',
];

/** The host key algorithms that sign with keys of this type. */
function algorithmsOf(keyType: string): string[] {
  return keyType === 'ssh-rsa' ? ['rsa-sha2-512', 'rsa-sha2-256', 'ssh-rsa'] : [keyType];
}

/** The connection settings and check that decide whether the host key is trusted. */
async function hostKeyTrust(
  options: SshEnvironmentOptions,
  port: number,
): Promise<{ connect: ConnectConfig; check?: (key: Buffer) => Error | undefined }> {
  const verifier = options.hostVerifier ?? options.connect?.hostVerifier;
  if (verifier !== undefined) return { connect: { hostVerifier: verifier } };
  if (options.insecureAcceptAnyHostKey !== undefined && typeof options.insecureAcceptAnyHostKey !== 'boolean') {
    throw new ToolHostError('invalid_options', 'insecureAcceptAnyHostKey must be true or false');
  }
  if (options.insecureAcceptAnyHostKey === true) {
    if (options.knownHosts !== undefined || options.hostKey !== undefined)
      throw new ToolHostError(
        'invalid_options',
        'insecureAcceptAnyHostKey turns off the knownHosts and hostKey checks: give one or the other',
      );
    return { connect: { hostVerifier: undefined, hostHash: undefined } };
  }
  if (options.knownHosts !== undefined && options.hostKey !== undefined)
    throw new ToolHostError('invalid_options', 'give knownHosts or hostKey, not both');
  const policy = await createHostKeyPolicy({ host: options.host, port, knownHosts: options.knownHosts, hostKey: options.hostKey });
  // As OpenSSH does, ask first for the key types the policy knows, so a host with several keys offers a trusted one.
  const known = new Set(policy.knownKeyTypes.flatMap(algorithmsOf));
  const preferred = HOST_KEY_ALGORITHMS.filter((algorithm) => known.has(algorithm));
  const ordered = [...preferred, ...HOST_KEY_ALGORITHMS.filter((algorithm) => !known.has(algorithm))];
  const algorithms =
    options.connect?.algorithms?.serverHostKey !== undefined || preferred.length === 0
      ? options.connect?.algorithms
      : { ...options.connect?.algorithms, serverHostKey: ordered };
  return {
    connect: { hostVerifier: undefined, hostHash: undefined, ...(algorithms === undefined ? {} : { algorithms }) },
    check: (key) => policy.check(key),
  };
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
  if (typeof options.host !== 'string' || typeof options.username !== 'string')
    throw new ToolHostError('invalid_options', 'host and username are required');
  if (options.privateKey === undefined && options.agent === undefined && options.connect?.password === undefined) {
    throw new ToolHostError('invalid_options', 'give privateKey or agent to log in');
  }
  const port = options.port ?? 22;
  const trust = await hostKeyTrust(options, port);
  const pool = new SshPool(
    {
      ...options.connect,
      ...trust.connect,
      host: options.host,
      port,
      username: options.username,
      ...(options.privateKey === undefined ? {} : { privateKey: options.privateKey, passphrase: options.passphrase }),
      ...(options.agent === undefined ? {} : { agent: options.agent }),
    },
    Math.max(2, Math.floor(options.channelsPerConnection ?? 10)),
    trust.check,
  );
  let probe;
  try {
    probe = await runSshScript(
      pool,
      '[ -d "$1" ] || exit 2\nreadlink -f -- "$1"\ncommand -v bash || echo\ncommand -v pwsh || echo\ncommand -v rg || echo',
      [options.root],
    );
    if (probe.exitCode !== 0)
      throw new Error(
        probe.exitCode === 2 ? `${options.root} is not a folder on ${options.host}` : probe.stderr.trim() || `exit code ${probe.exitCode}`,
      );
  } catch (error) {
    pool.close();
    if (ToolHostError.is(error)) throw error;
    throw new ToolHostError(
      'invalid_options',
      `SSH environment could not start: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const [realRoot = options.root, bash = '', pwsh = '', ripgrep = ''] = probe.stdout.toString('utf8').split('\n');
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
        if (!pwsh)
          return {
            ok: false,
            message: `PowerShell (pwsh) is not installed on ${options.host}, so the command could not start. Use the unix_like shell profile.`,
          };
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
    // The probe read the host's own PATH; a PATH the commands are given replaces it.
    findsRipgrep: (env) => ripgrep !== '' && env.PATH === undefined,
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
