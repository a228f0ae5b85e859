import type { ConnectConfig, ServerHostKeyAlgorithm } from 'ssh2';
import { ToolHostError, type Environment, type WorkspaceDurability } from '@toolhost/core';
import { createRemoteEnvironment } from '@toolhost/remote';
import { createHostKeyPolicy } from './host-key-policy.js';
import { SshPool } from './ssh-pool.js';
import { createSshTransport } from './ssh-transport.js';

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
  /**
   * What a multi-file edit survives: `'disk'` (default) a crash of the host machine (files and journal are flushed with
   * `fsync@openssh.com`), `'process'` only this process being killed, with no flush (faster on large edits).
   */
  durability?: WorkspaceDurability;
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
 * const environment = await createSshEnvironment({
 *   host: 'build-1',
 *   username: 'agent',
 *   privateKey: readFileSync('/home/me/.ssh/id_ed25519'),
 *   root: '/srv/repo',
 * });
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
  const transport = createSshTransport(pool, options.host);
  let environment: Environment;
  try {
    environment = await createRemoteEnvironment(transport, {
      root: options.root,
      ...(options.durability === undefined ? {} : { durability: options.durability }),
    });
  } catch (error) {
    await transport.close();
    if (ToolHostError.is(error)) throw error;
    throw new ToolHostError(
      'invalid_options',
      `SSH environment could not start: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return { ...environment, kind: 'ssh' };
}
