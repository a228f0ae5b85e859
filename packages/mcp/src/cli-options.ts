import { parseArgs } from 'node:util';
import type { ShellProfileSetting, ToolProfile } from 'toolhost';
import { normalizeOrigin } from './request-origin.js';

/** Where the tools of `toolhost-mcp` run: a local folder, a container or an SSH host. */
export type CliTarget = WorkspaceTarget | DockerImageTarget | DockerContainerTarget | SshTarget;

/** `--workspace DIR`: a folder on this machine. */
export interface WorkspaceTarget {
  kind: 'workspace';
  workspace: string;
}

/** `--docker-image IMAGE`: a fresh container per MCP session, removed when the session ends. */
export interface DockerImageTarget {
  kind: 'docker-image';
  image: string;
  /** The folder in the container the tools work in (created). */
  root: string;
  /** A folder on the engine's machine bind-mounted at `root`. */
  mount?: string;
  /** The network the container joins (`none`: no network). */
  network: string;
  /** Memory limit in bytes, swap included (0: none). */
  memoryBytes: number;
  /** CPU limit in CPUs (0: none). */
  cpus: number;
  /** Most processes at once (0: no limit). */
  pids: number;
  /** User the commands run as (default: the image's). */
  user?: string;
}

/** `--docker-container ID`: a running container, left running. */
export interface DockerContainerTarget {
  kind: 'docker-container';
  container: string;
  root: string;
  user?: string;
}

/** `--ssh USER@HOST[:PORT]`: an SSH host. */
export interface SshTarget {
  kind: 'ssh';
  username: string;
  host: string;
  port: number;
  root: string;
  /** The private key file (else the ssh-agent at `agent`). */
  keyFile?: string;
  /** The ssh-agent socket used when no key file is given. */
  agent?: string;
  /** known_hosts files to trust instead of OpenSSH's default ones. */
  knownHosts?: string[];
  /** Pinned host keys (public keys or `SHA256:` fingerprints), trusted instead of known_hosts. */
  hostKeys?: string[];
}

/** Parsed command line of `toolhost-mcp`. */
export interface CliOptions {
  target: CliTarget;
  profile: ToolProfile;
  shellProfile: ShellProfileSetting;
  /** A module whose `default` (or `catalog`) export is a CatalogEntry[]. */
  catalog?: string;
  /** Serve streamable HTTP on this address instead of stdio. */
  http?: { hostname: string; port: number };
  /** The bearer token HTTP clients must send (from --token, or the file --token-file names, resolved). */
  token?: string;
  /** The file holding the token (read by the CLI). */
  tokenFile?: string;
  /** Browser origins served besides the loopback ones (normalized). */
  allowedOrigins?: string[];
  /** Idle time after which an HTTP session ends, in milliseconds (0: never). */
  idleTimeoutMs?: number;
}

/** Default limits of a `--docker-image` container. */
export const DOCKER_DEFAULTS = { root: '/workspace', network: 'none', memory: '2g', cpus: 2, pids: 1024 } as const;

/** Usage text of `toolhost-mcp`. */
export const CLI_USAGE = `Usage: toolhost-mcp [--workspace DIR | --docker-image IMAGE | --docker-container ID | --ssh USER@HOST[:PORT]] [options]
Serves toolhost's tools over MCP on stdin/stdout (until stdin closes), or over streamable HTTP with --http.
Where the tools run (one of):
  --workspace DIR           a folder on this machine (default: the current folder)
  --docker-image IMAGE      a fresh container per MCP session, removed when the session ends
  --docker-container ID     a running container (left running)
  --ssh USER@HOST[:PORT]    an SSH host; its key must be in known_hosts
  --root DIR                with --docker-*/--ssh: the folder the tools work in there (--docker-image: ${DOCKER_DEFAULTS.root},
                            created; required otherwise)
  --mount HOST_DIR          with --docker-image: bind-mount HOST_DIR at --root, so its files are edited in place
  --docker-network NAME     with --docker-image: the network the container joins (default: ${DOCKER_DEFAULTS.network}, no network)
  --docker-memory SIZE      with --docker-image: memory limit, swap included, like 512m or 4g (default: ${DOCKER_DEFAULTS.memory}; 0: none)
  --docker-cpus N           with --docker-image: CPU limit, like 1.5 (default: ${DOCKER_DEFAULTS.cpus}; 0: none)
  --docker-pids N           with --docker-image: most processes at once (default: ${DOCKER_DEFAULTS.pids}; 0: no limit)
  --docker-user USER        with --docker-*: the user commands run as, like 1000:1000 (default: the image's)
  --ssh-key FILE            with --ssh: private key file (default: the ssh-agent at SSH_AUTH_SOCK)
  --ssh-known-hosts FILE    with --ssh: trust the host keys in FILE (repeatable) instead of ~/.ssh/known_hosts and
                            /etc/ssh/ssh_known_hosts
  --ssh-host-key KEY        with --ssh: trust only this host key ("ssh-ed25519 AAAA..." or "SHA256:..."; repeatable)
Tools:
  --profile                 tool profile: default or advanced (default: default)
  --shell-profile           shell syntax the model is told to use: auto, unix_like or powershell (default: auto)
  --catalog MODULE          module exporting deferred catalog tools (default export or "catalog")
HTTP:
  --http HOST:PORT          serve streamable HTTP at http://HOST:PORT/mcp, one tool host per MCP session
  --token T                 bearer token HTTP clients must send (Authorization: Bearer T)
  --token-file F            read the bearer token from file F (first line)
  --allow-origin ORIGIN     also serve browser requests from ORIGIN (https://host[:port]; repeatable); by default only
                            requests without Origin and from localhost, 127.x.x.x or [::1] origins are served
  --idle-timeout SECONDS    end a session idle this long, killing its processes (default: 900; 0: never)`;

/** Longest idle timeout: what a Node timer takes, in whole seconds. */
const MAX_IDLE_TIMEOUT_MS = 2_147_483_000;

/** Docker's smallest memory limit. */
const MIN_MEMORY_BYTES = 6 * 1024 * 1024;

const MEMORY_UNITS: Record<string, number> = { '': 1, b: 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

/** Bytes of a size as Docker writes them (`512m`, `4g`, `1.5g`, plain bytes); undefined when malformed. */
export function parseMemorySize(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)([bkmg]?)$/i.exec(text.trim());
  if (!match) return undefined;
  const bytes = Math.round(Number(match[1]) * MEMORY_UNITS[match[2].toLowerCase()]);
  return Number.isSafeInteger(bytes) ? bytes : undefined;
}

/** Splits `USER@HOST[:PORT]` (`USER@[::1]:2222` for IPv6); undefined when malformed. */
export function parseSshDestination(text: string): { username: string; host: string; port: number } | undefined {
  const match = /^([^@\s]+)@(\[[0-9A-Fa-f:.%\w]+\]|[^:@\s[\]]+)(?::(\d{1,5}))?$/.exec(text);
  if (!match) return undefined;
  const port = match[3] === undefined ? 22 : Number(match[3]);
  if (port < 1 || port > 65535) return undefined;
  return { username: match[1], host: match[2].replace(/^\[(.*)\]$/, '$1'), port };
}

type Parsed = Record<string, string | boolean | string[] | undefined>;

const DOCKER_IMAGE_ONLY = ['mount', 'docker-network', 'docker-memory', 'docker-cpus', 'docker-pids'] as const;
const SSH_ONLY = ['ssh-key', 'ssh-known-hosts', 'ssh-host-key'] as const;

/** The target the flags name, or an error message. */
function parseTarget(
  parsed: Parsed,
  cwd: string,
  resolvePath: (base: string, path: string) => string,
  env: Record<string, string | undefined>,
): CliTarget | { error: string } {
  const named = (['workspace', 'docker-image', 'docker-container', 'ssh'] as const).filter((flag) => parsed[flag] !== undefined);
  if (named.length > 1)
    return {
      error: `give one of --workspace, --docker-image, --docker-container or --ssh, not ${named.map((flag) => `--${flag}`).join(' and ')}`,
    };
  const kind = named[0] ?? 'workspace';
  const misplaced = (flags: readonly string[], where: string) => {
    const given = flags.filter((flag) => parsed[flag] !== undefined);
    return given.length
      ? { error: `${given.map((flag) => `--${flag}`).join(' and ')} ${given.length > 1 ? 'apply' : 'applies'} only with ${where}` }
      : undefined;
  };
  const wrong =
    (kind !== 'docker-image' ? misplaced(DOCKER_IMAGE_ONLY, '--docker-image') : undefined) ??
    (kind !== 'docker-image' && kind !== 'docker-container'
      ? misplaced(['docker-user'], '--docker-image or --docker-container')
      : undefined) ??
    (kind !== 'ssh' ? misplaced(SSH_ONLY, '--ssh') : undefined) ??
    (kind === 'workspace'
      ? misplaced(['root'], '--docker-image, --docker-container or --ssh (--workspace names the folder itself)')
      : undefined);
  if (wrong) return wrong;
  if (kind === 'workspace') return { kind, workspace: resolvePath(cwd, (parsed.workspace as string | undefined) ?? '.') };

  const value = parsed[kind] as string;
  if (value.trim() === '') return { error: `--${kind} must not be empty` };
  const root = parsed.root as string | undefined;
  if (root !== undefined && !root.startsWith('/'))
    return { error: `--root must be an absolute path (the folder ${kind === 'ssh' ? 'on the host' : 'in the container'}), got ${root}` };
  if (root === undefined && kind !== 'docker-image') {
    return {
      error: `--${kind} needs --root DIR: the folder ${kind === 'ssh' ? 'on the host' : 'in the container'} the tools work in (an absolute path)`,
    };
  }
  const user = parsed['docker-user'] as string | undefined;
  if (user !== undefined && user.trim() === '') return { error: '--docker-user must not be empty' };

  if (kind === 'docker-container') return { kind, container: value, root: root!, ...(user === undefined ? {} : { user }) };

  if (kind === 'ssh') {
    const destination = parseSshDestination(value);
    if (!destination) return { error: `--ssh must be USER@HOST or USER@HOST:PORT (USER@[::1]:2222 for an IPv6 address), got ${value}` };
    const keyFile = parsed['ssh-key'] as string | undefined;
    const agent = env.SSH_AUTH_SOCK;
    if (keyFile === undefined && !agent) return { error: '--ssh needs --ssh-key FILE, or an ssh-agent (SSH_AUTH_SOCK) holding the key' };
    const knownHosts = parsed['ssh-known-hosts'] as string[] | undefined;
    const hostKeys = parsed['ssh-host-key'] as string[] | undefined;
    if (knownHosts !== undefined && hostKeys !== undefined)
      return { error: 'give --ssh-known-hosts or --ssh-host-key, not both (a pinned key replaces known_hosts)' };
    return {
      kind,
      ...destination,
      root: root!,
      ...(keyFile === undefined ? { agent } : { keyFile: resolvePath(cwd, keyFile) }),
      ...(knownHosts === undefined ? {} : { knownHosts: knownHosts.map((file) => resolvePath(cwd, file)) }),
      ...(hostKeys === undefined ? {} : { hostKeys }),
    };
  }

  const network = (parsed['docker-network'] as string | undefined) ?? DOCKER_DEFAULTS.network;
  if (network.trim() === '') return { error: '--docker-network must name a network (none: no network)' };
  const memoryText = (parsed['docker-memory'] as string | undefined) ?? DOCKER_DEFAULTS.memory;
  const memoryBytes = parseMemorySize(memoryText);
  if (memoryBytes === undefined || (memoryBytes !== 0 && memoryBytes < MIN_MEMORY_BYTES)) {
    return { error: `--docker-memory must be a size like 512m or 4g (at least 6m; 0: no limit), got ${memoryText}` };
  }
  const cpusText = parsed['docker-cpus'] as string | undefined;
  const cpus = cpusText === undefined ? DOCKER_DEFAULTS.cpus : cpusText.trim() === '' ? NaN : Number(cpusText);
  if (!(cpus === 0 || (cpus >= 0.01 && cpus <= 1024)))
    return { error: `--docker-cpus must be a number of CPUs from 0.01 to 1024, like 1.5 (0: no limit), got ${cpusText}` };
  const pidsText = parsed['docker-pids'] as string | undefined;
  const pids = pidsText === undefined ? DOCKER_DEFAULTS.pids : /^\d{1,9}$/.test(pidsText) ? Number(pidsText) : NaN;
  if (Number.isNaN(pids)) return { error: `--docker-pids must be a whole number of processes (0: no limit), got ${pidsText}` };
  const mount = parsed.mount as string | undefined;
  return {
    kind,
    image: value,
    root: root ?? DOCKER_DEFAULTS.root,
    ...(mount === undefined ? {} : { mount: resolvePath(cwd, mount) }),
    network,
    memoryBytes,
    cpus,
    pids,
    ...(user === undefined ? {} : { user }),
  };
}

/** Parses `toolhost-mcp` arguments; returns an error message instead of throwing. `env` supplies SSH_AUTH_SOCK. */
export function parseCliOptions(
  argv: string[],
  cwd: string,
  resolvePath: (base: string, path: string) => string,
  env: Record<string, string | undefined> = {},
): CliOptions | { error: string } | { help: true } {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        workspace: { type: 'string' },
        'docker-image': { type: 'string' },
        'docker-container': { type: 'string' },
        ssh: { type: 'string' },
        root: { type: 'string' },
        mount: { type: 'string' },
        'docker-network': { type: 'string' },
        'docker-memory': { type: 'string' },
        'docker-cpus': { type: 'string' },
        'docker-pids': { type: 'string' },
        'docker-user': { type: 'string' },
        'ssh-key': { type: 'string' },
        'ssh-known-hosts': { type: 'string', multiple: true },
        'ssh-host-key': { type: 'string', multiple: true },
        profile: { type: 'string' },
        'shell-profile': { type: 'string' },
        catalog: { type: 'string' },
        http: { type: 'string' },
        token: { type: 'string' },
        'token-file': { type: 'string' },
        'allow-origin': { type: 'string', multiple: true },
        'idle-timeout': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
  if (parsed.help) return { help: true };
  const profile = parsed.profile ?? 'default';
  if (profile !== 'default' && profile !== 'advanced') return { error: `--profile must be default or advanced, got ${profile}` };
  const shellProfile = parsed['shell-profile'] ?? 'auto';
  if (shellProfile !== 'auto' && shellProfile !== 'unix_like' && shellProfile !== 'powershell') {
    return { error: `--shell-profile must be auto, unix_like or powershell, got ${shellProfile}` };
  }
  const target = parseTarget(parsed, cwd, resolvePath, env);
  if ('error' in target) return target;
  const options: CliOptions = {
    target,
    profile,
    shellProfile,
    catalog: parsed.catalog === undefined ? undefined : resolvePath(cwd, parsed.catalog),
  };
  if (parsed.http === undefined) {
    if (parsed.token !== undefined || parsed['token-file'] !== undefined)
      return { error: '--token and --token-file apply only with --http' };
    if (parsed['allow-origin'] !== undefined || parsed['idle-timeout'] !== undefined)
      return { error: '--allow-origin and --idle-timeout apply only with --http' };
    return options;
  }
  const address = /^(.+):(\d{1,5})$/.exec(parsed.http);
  const port = address ? Number(address[2]) : NaN;
  if (!address || port > 65535) return { error: `--http must be HOST:PORT (for example 127.0.0.1:8765), got ${parsed.http}` };
  if ((parsed.token === undefined) === (parsed['token-file'] === undefined))
    return { error: '--http needs exactly one of --token T or --token-file F' };
  if (parsed.token !== undefined && parsed.token.trim() === '') return { error: '--token must not be empty' };
  options.http = { hostname: address[1].replace(/^\[(.*)\]$/, '$1'), port };
  if (parsed.token !== undefined) options.token = parsed.token.trim();
  else options.tokenFile = resolvePath(cwd, parsed['token-file'] as string);
  if (parsed['allow-origin'] !== undefined) {
    options.allowedOrigins = [];
    for (const origin of parsed['allow-origin']) {
      const normalized = normalizeOrigin(origin);
      if (normalized === undefined)
        return { error: `--allow-origin must be an origin like https://app.example or http://host:8080, got ${origin}` };
      options.allowedOrigins.push(normalized);
    }
  }
  if (parsed['idle-timeout'] !== undefined) {
    const seconds = parsed['idle-timeout'].trim() === '' ? NaN : Number(parsed['idle-timeout']);
    if (!(seconds >= 0 && seconds * 1000 <= MAX_IDLE_TIMEOUT_MS)) {
      return { error: `--idle-timeout must be a number of seconds from 0 to ${MAX_IDLE_TIMEOUT_MS / 1000}, got ${parsed['idle-timeout']}` };
    }
    options.idleTimeoutMs = seconds === 0 ? 0 : Math.max(1, Math.round(seconds * 1000));
  }
  return options;
}
