import { readFile } from 'node:fs/promises';
import { createToolHost, ToolHostError, type Environment } from 'toolhost';
import type { CliTarget, DockerImageTarget } from './cli-options.js';
import { createEnvironmentHost, type McpHostOptions } from './environment-host.js';
import type { McpSessionHost } from './mcp-session-host.js';
import { loadOptionalPackage } from './optional-package.js';

/** How `toolhost-mcp` starts the tool host of each MCP session on its target. */
export interface CliSessions {
  /** Starts one session's host (for `--docker-image`, in a new container). */
  createHost(): Promise<McpSessionHost>;
  /** Where the tools run, for the log. */
  readonly description: string;
}

/** The CPU period limits are counted in (Docker's default, 100 ms). */
const CPU_PERIOD_US = 100_000;

/** Options of the container made for one session: no network unless named, memory (swap included), CPU and process limits. */
export function dockerCreateOptions(target: DockerImageTarget) {
  return {
    Labels: { 'dev.toolhost.environment': 'docker', 'dev.toolhost.mcp-session': 'true' },
    HostConfig: {
      NetworkMode: target.network,
      ...(target.memoryBytes > 0 ? { Memory: target.memoryBytes, MemorySwap: target.memoryBytes } : {}),
      // A quota rather than NanoCpus: the engine refuses NanoCpus beyond its own CPU count, a quota just allows all of them.
      ...(target.cpus > 0 ? { CpuPeriod: CPU_PERIOD_US, CpuQuota: Math.round(target.cpus * CPU_PERIOD_US) } : {}),
      ...(target.pids > 0 ? { PidsLimit: target.pids } : {}),
      ...(target.mount === undefined ? {} : { Mounts: [{ Type: 'bind' as const, Source: target.mount, Target: target.root }] }),
    },
  };
}

/** The Docker engine the client reaches, for messages. */
function dockerEngine(): string {
  return process.env.DOCKER_HOST
    ? `the Docker engine at DOCKER_HOST=${process.env.DOCKER_HOST}`
    : 'the Docker engine at the default socket (set DOCKER_HOST for another)';
}

/** A Docker start failure with what to do about the usual causes. */
function dockerFailure(what: string, error: unknown, image?: string): ToolHostError {
  const message = (error instanceof Error ? error.message : String(error)).replace(/^Docker environment could not start: /, '');
  const hint = /ENOENT|ECONNREFUSED|EACCES|socket hang up/.test(message)
    ? ' (is Docker running, and may this user use it?)'
    : /No such image/i.test(message)
      ? ` (pull the image first: docker pull ${image ?? 'IMAGE'})`
      : '';
  return new ToolHostError('invalid_options', `${what} on ${dockerEngine()}: ${message}${hint}`, { cause: error });
}

/** A byte count as the largest binary unit that divides it. */
function sizeText(bytes: number): string {
  for (const [unit, size] of [
    ['GiB', 1024 ** 3],
    ['MiB', 1024 ** 2],
    ['KiB', 1024],
  ] as const) {
    if (bytes % size === 0) return `${bytes / size} ${unit}`;
  }
  return `${bytes} bytes`;
}

function describeDocker(target: DockerImageTarget): string {
  const limits = [
    target.network === 'none' ? 'no network' : `network ${target.network}`,
    target.memoryBytes > 0 ? `memory ${sizeText(target.memoryBytes)}` : 'no memory limit',
    target.cpus > 0 ? `${target.cpus} CPU${target.cpus === 1 ? '' : 's'}` : 'no CPU limit',
    target.pids > 0 ? `at most ${target.pids} processes` : 'no process limit',
  ];
  const mount = target.mount === undefined ? '' : `, ${target.mount} mounted at ${target.root}`;
  return `a fresh container from ${target.image} (${limits.join(', ')}${mount}), working in ${target.root}`;
}

/**
 * The session starter for a command line's target. The Docker and SSH packages load here, only for their flags; nothing
 * connects yet (the caller starts one host to check that the target works before serving).
 */
export async function cliSessions(target: CliTarget, hostOptions: McpHostOptions): Promise<CliSessions> {
  if (target.kind === 'workspace') {
    return {
      createHost: async () => createToolHost({ ...hostOptions, workspace: target.workspace }),
      description: `the folder ${target.workspace}`,
    };
  }
  let start: () => Promise<Environment>;
  let description: string;
  let recovery: string | undefined;
  if (target.kind === 'ssh') {
    const { createSshEnvironment } = await loadOptionalPackage('@toolhost/ssh', '--ssh', () => import('@toolhost/ssh'));
    let privateKey: Buffer | undefined;
    if (target.keyFile !== undefined) {
      try {
        privateKey = await readFile(target.keyFile);
      } catch (error) {
        throw new ToolHostError(
          'invalid_options',
          `--ssh-key ${target.keyFile} cannot be read: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
    const shown = `${target.username}@${target.host.includes(':') ? `[${target.host}]` : target.host}${target.port === 22 ? '' : `:${target.port}`}`;
    start = async () => {
      try {
        return await createSshEnvironment({
          host: target.host,
          port: target.port,
          username: target.username,
          root: target.root,
          ...(privateKey === undefined ? { agent: target.agent } : { privateKey }),
          ...(target.knownHosts === undefined ? {} : { knownHosts: target.knownHosts }),
          ...(target.hostKeys === undefined ? {} : { hostKey: target.hostKeys }),
        });
      } catch (error) {
        // Host key refusals name the host, the key and how to trust it in the API's words: add the flags' words.
        if (ToolHostError.is(error) && error.code.startsWith('host_key_')) {
          throw new ToolHostError(
            error.code,
            `${error.message} (toolhost-mcp: --ssh-known-hosts FILE trusts the keys in FILE, --ssh-host-key 'SHA256:…' pins one.)`,
            { cause: error },
          );
        }
        const message = (error instanceof Error ? error.message : String(error)).replace(/^SSH environment could not start: /, '');
        throw new ToolHostError('invalid_options', `cannot work in ${target.root} on ${shown} over SSH: ${message}`, { cause: error });
      }
    };
    description = `${target.root} on ${shown} over SSH`;
  } else {
    const { createDockerEnvironment } = await loadOptionalPackage('@toolhost/docker', `--${target.kind}`, () => import('@toolhost/docker'));
    const user = target.user === undefined ? {} : { user: target.user };
    if (target.kind === 'docker-container') {
      start = async () => {
        try {
          return await createDockerEnvironment({ container: target.container, root: target.root, ...user });
        } catch (error) {
          throw dockerFailure(`cannot work in ${target.root} in container ${target.container}`, error);
        }
      };
      description = `${target.root} in the running container ${target.container}`;
    } else {
      const create = dockerCreateOptions(target);
      start = async () => {
        try {
          return await createDockerEnvironment({ image: target.image, root: target.root, create, ...user });
        } catch (error) {
          throw dockerFailure(`cannot start a container from ${target.image}`, error, target.image);
        }
      };
      description = describeDocker(target);
      recovery = `Reconnecting to the MCP server starts a fresh container${target.mount === undefined ? '' : ' (only the files in the mounted folder are kept)'}.`;
    }
  }
  return {
    description,
    async createHost() {
      const environment = await start();
      try {
        return createEnvironmentHost(environment, hostOptions, recovery);
      } catch (error) {
        await environment.close().catch(() => undefined);
        throw error;
      }
    },
  };
}
