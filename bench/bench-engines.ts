// The Docker container and SSH folder the environment benches run in, made and removed the same way for each.
import { readFileSync } from 'node:fs';
import Dockerode from 'dockerode';
import type { Environment } from '@toolhost/core';
import { createDockerEnvironment } from '@toolhost/docker';
import { createSshEnvironment } from '@toolhost/ssh';

const SETUP = 'run eval "$(bash test/environments/setup-ci.sh)"';

/** A container of the test image with `root` made in it (no network), and a Docker environment on it. */
export interface BenchContainer {
  container: Dockerode.Container;
  environment: Environment;
  /** Closes the environment and removes the container. */
  remove(): Promise<void>;
}

/** Starts a container for a bench; a string says why it could not (Docker or the image missing), for a SKIPPED line. */
export async function startBenchContainer(root: string): Promise<BenchContainer | string> {
  const image = process.env.TOOLHOST_TEST_DOCKER_IMAGE ?? 'toolhost-test:busybox';
  const docker = new Dockerode();
  try {
    await docker.ping();
    await docker.getImage(image).inspect();
  } catch (error) {
    return `Docker or image ${image} unavailable (${error instanceof Error ? error.message : String(error)}); ${SETUP}`;
  }
  const container = await docker.createContainer({
    Image: image,
    Cmd: ['/bin/sh', '-c', `mkdir -p ${root} && exec sleep 100000`],
    HostConfig: { NetworkMode: 'none' },
  });
  await container.start();
  let environment: Environment | undefined;
  try {
    // The root is made by the container's first command, which may not have run yet.
    for (let attempt = 0; !environment; attempt++) {
      environment = await createDockerEnvironment({ container: container.id, root }).catch((error: unknown) => {
        if (attempt > 50) throw error;
        return undefined;
      });
    }
  } catch (error) {
    await container.remove({ force: true }).catch(() => undefined);
    throw error;
  }
  const opened = environment;
  return {
    container,
    environment: opened,
    async remove() {
      await opened.close();
      await container.remove({ force: true }).catch(() => undefined);
    },
  };
}

/**
 * Runs `task` with an SSH environment rooted in a fresh folder under the test host's root, removed afterwards; a
 * string says why it could not (the TOOLHOST_TEST_SSH_* variables missing), for a SKIPPED line.
 */
export async function withSshFolder<T>(name: string, task: (environment: Environment) => Promise<T>): Promise<T | string> {
  const {
    TOOLHOST_TEST_SSH_HOST: host,
    TOOLHOST_TEST_SSH_PORT: port,
    TOOLHOST_TEST_SSH_USER: username,
    TOOLHOST_TEST_SSH_KEY: key,
    TOOLHOST_TEST_SSH_ROOT: root,
    TOOLHOST_TEST_SSH_KNOWN_HOSTS: knownHosts,
  } = process.env;
  if (!host || !username || !key || !root || !knownHosts) return `TOOLHOST_TEST_SSH_* not set; ${SETUP}`;
  const settings = { host, port: Number(port ?? 22), username, privateKey: readFileSync(key), knownHosts };
  const folder = `${name}-${process.pid}`;
  const base = await createSshEnvironment({ ...settings, root });
  try {
    await base.workspace.writeFile(`${folder}/.keep`, new Uint8Array());
    const environment = await createSshEnvironment({ ...settings, root: `${root}/${folder}` });
    try {
      return await task(environment);
    } finally {
      await environment.close();
    }
  } finally {
    const cleanup = await base.processes
      .executor('pipe')
      .spawn({ file: '/bin/sh', args: ['-c', `rm -rf ${folder}`], cwd: root, env: {}, rows: 24, cols: 80 });
    await new Promise((resolve) => cleanup.onSettled(resolve));
    await base.close();
  }
}
