import Dockerode from 'dockerode';
import {
  ToolHostError,
  remoteFindScript,
  remoteKillScript,
  type Environment,
  type EnvironmentProcesses,
  type Executor,
  type MarkerMatch,
} from '@toolhost/core';
import { createDockerExecutor, dockerErrorMessage, markerInTop, runDockerScript, startDockerShell } from './docker-exec.js';
import { HelperShellPool } from './helper-shell.js';
import { createScriptWorkspace, type ScriptRunner } from './script-workspace.js';

/** Helper shells kept per environment: file operations of one patch run on them in parallel. */
const HELPER_SHELLS = 4;

/** Options of {@link createDockerEnvironment}: a running `container`, or an `image` to create one from. */
export interface DockerEnvironmentOptions {
  /** Id or name of a running container to work in (it is left running by close()). */
  container?: string;
  /** Image to create a container from (removed by close()); it needs `/bin/sh` and `sleep`. */
  image?: string;
  /** Absolute path of the workspace inside the container (created when a new container is made). */
  root: string;
  /** The Docker client (default: `new Dockerode()`, which reads DOCKER_HOST). */
  docker?: Dockerode;
  /** User the commands run as inside the container (default: the container's user). */
  user?: string;
  /** Extra options for the container created from `image` (default network mode: `none`). */
  create?: Dockerode.ContainerCreateOptions;
}

/** The environment of a Docker container; `container` is the dockerode handle. */
export interface DockerEnvironment extends Environment {
  /** Always `docker`. */
  readonly kind: 'docker';
  /** The dockerode handle of the container. */
  readonly container: Dockerode.Container;
}

/**
 * Commands through Docker exec; kills and marker scans through the helper shells (Docker's top when it answers).
 * `ripgrep`: the container's PATH has `rg`.
 */
function dockerProcesses(
  container: Dockerode.Container,
  helpers: HelperShellPool,
  shellPath: string,
  pwsh: string | undefined,
  ripgrep: boolean,
  user: string | undefined,
): EnvironmentProcesses {
  const kill = async (match: MarkerMatch) => {
    // A dedicated exec, so a kill never waits behind file operations (and works while every helper shell is busy).
    await runDockerScript(container, remoteKillScript(match), []).catch(() => undefined);
  };
  const executors: Record<'pipe' | 'pty', Executor> = {
    pipe: createDockerExecutor(container, 'pipe', (marker) => kill({ exact: marker }), user),
    pty: createDockerExecutor(container, 'pty', (marker) => kill({ exact: marker }), user),
  };
  return {
    baseEnvironment: () => ({}),
    executor: (kind) => executors[kind],
    shell(kind, cmd) {
      if (kind === 'powershell') {
        if (!pwsh)
          return {
            ok: false,
            message:
              'PowerShell (pwsh) is not installed in the container, so the command could not start. Use the unix_like shell profile.',
          };
        return { ok: true, file: pwsh, args: ['-NoProfile', '-Command', cmd] };
      }
      return { ok: true, file: shellPath, args: ['-c', cmd] };
    },
    async hasProcesses(_child, marker) {
      // A helper shell answers in one round trip; Docker's top (which runs ps on the engine's host) when none can.
      const outcome = await helpers.run(remoteFindScript({ exact: marker }), []).catch(() => undefined);
      if (outcome && (outcome.exitCode === 0 || outcome.exitCode === 1)) return outcome.exitCode === 0;
      return (await markerInTop(container, marker)) ?? false;
    },
    killMarked: kill,
    // The probe read the container's own PATH; a PATH the commands are given replaces it.
    findsRipgrep: (env) => ripgrep && env.PATH === undefined,
  };
}

/**
 * Works inside a Docker container through the Docker API: commands through exec (pipes or a TTY, kills from a second
 * exec), files through small helper execs with atomic writes. With `image`, creates (and on close() removes) the container.
 *
 * @example
 * ```ts
 * import { createDockerEnvironment } from '@toolhost/docker';
 * import { createToolHost } from 'toolhost';
 *
 * // A new container from an image (removed by close()), or container: 'name-or-id' for one that runs already.
 * const host = createToolHost({ environment: await createDockerEnvironment({ image: 'node:22', root: '/workspace' }) });
 * ```
 */
export async function createDockerEnvironment(options: DockerEnvironmentOptions): Promise<DockerEnvironment> {
  if (!options || typeof options.root !== 'string' || !options.root.startsWith('/')) {
    throw new ToolHostError('invalid_options', `root must be an absolute path inside the container, got ${JSON.stringify(options?.root)}`);
  }
  if ((options.container === undefined) === (options.image === undefined)) {
    throw new ToolHostError('invalid_options', 'give exactly one of container (a running container) or image (to create one)');
  }
  const docker = options.docker ?? new Dockerode();
  let container: Dockerode.Container;
  let created = false;
  try {
    if (options.image !== undefined) {
      container = await docker.createContainer({
        Image: options.image,
        Cmd: ['/bin/sh', '-c', 'trap "exit 0" TERM; while :; do sleep 3600 & wait $!; done'],
        WorkingDir: '/',
        Labels: { 'dev.toolhost.environment': 'docker' },
        ...options.create,
        HostConfig: { NetworkMode: 'none', Init: false, ...options.create?.HostConfig },
      });
      created = true;
      await container.start();
    } else container = docker.getContainer(options.container!);
    const info = await container.inspect();
    if (!info.State?.Running) throw new Error(`container ${options.container ?? info.Id} is not running`);
  } catch (error) {
    if (created) await container!.remove({ force: true }).catch(() => undefined);
    throw new ToolHostError('invalid_options', `Docker environment could not start: ${dockerErrorMessage(error)}`);
  }
  const run: ScriptRunner = (script, args, input) => runDockerScript(container, script, args, input);
  let probe;
  try {
    const mkdir = created ? 'mkdir -p -- "$1" || exit 1\n' : '';
    probe = await run(
      `${mkdir}[ -d "$1" ] || exit 2\nreadlink -f -- "$1"\ncommand -v bash || echo\ncommand -v pwsh || echo\ncommand -v rg || echo`,
      [options.root],
    );
    if (probe.exitCode !== 0)
      throw new Error(probe.exitCode === 2 ? `${options.root} is not a folder in the container` : probe.stderr.trim());
  } catch (error) {
    if (created) await container.remove({ force: true }).catch(() => undefined);
    throw new ToolHostError('invalid_options', `Docker environment could not start: ${dockerErrorMessage(error)}`);
  }
  const [realRoot = options.root, bash = '', pwsh = '', ripgrep = ''] = probe.stdout.toString('utf8').split('\n');
  const helpers = new HelperShellPool(() => startDockerShell(container, options.user), HELPER_SHELLS);
  const processes = dockerProcesses(container, helpers, bash || '/bin/sh', pwsh || undefined, ripgrep !== '', options.user);
  let closing: Promise<void> | undefined;
  return {
    kind: 'docker',
    platform: 'linux',
    container,
    workspace: createScriptWorkspace(options.root, realRoot, (script, args, input) => helpers.run(script, args, input)),
    processes,
    close() {
      closing ??= (async () => {
        await helpers.close();
        if (created) await container.remove({ force: true }).catch(() => undefined);
      })();
      return closing;
    },
  };
}
