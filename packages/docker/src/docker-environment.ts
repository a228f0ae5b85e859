import Dockerode from 'dockerode';
import { ToolHostError, type Environment, type WorkspaceDurability } from '@toolhost/core';
import { createRemoteEnvironment } from '@toolhost/remote';
import { createDockerTransport, dockerErrorMessage } from './docker-transport.js';

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
  /**
   * What a multi-file edit survives: `'disk'` (default) a crash of the container's machine (files, journal and folders
   * are flushed), `'process'` only this host being killed, with no flush (faster on large edits).
   */
  durability?: WorkspaceDurability;
}

/** The environment of a Docker container; `container` is the dockerode handle. */
export interface DockerEnvironment extends Environment {
  /** Always `docker`. */
  readonly kind: 'docker';
  /** The dockerode handle of the container. */
  readonly container: Dockerode.Container;
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
  const transport = createDockerTransport(container, options.user, async () => {
    if (created) await container.remove({ force: true }).catch(() => undefined);
  });
  let environment: Environment;
  try {
    environment = await createRemoteEnvironment(transport, {
      root: options.root,
      createRoot: created,
      helperShells: HELPER_SHELLS,
      ...(options.durability === undefined ? {} : { durability: options.durability }),
    });
  } catch (error) {
    await transport.close();
    throw new ToolHostError('invalid_options', `Docker environment could not start: ${dockerErrorMessage(error)}`);
  }
  return { ...environment, kind: 'docker', container };
}
