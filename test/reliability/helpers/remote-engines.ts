import { chmodSync } from 'node:fs';
import Dockerode from 'dockerode';
import type { Environment } from '@toolhost/core';
import { createDockerEnvironment } from '@toolhost/docker';
import { createSshEnvironment } from '@toolhost/ssh';
import { ENGINES, sshSettings } from '../../environments/engines.js';
import { createSandbox, type Sandbox } from './sandbox.js';

/** A remote engine whose workspace is a reliability sandbox's workspace, seen at the same path as on this machine. */
export interface RemoteSandboxEngine {
  name: 'docker' | 'ssh';
  /** A new environment over the sandbox's workspace (a host owns and closes it). */
  environment(): Promise<Environment>;
  /** Removes what the engine needed (the container). */
  cleanup(): Promise<void>;
}

/**
 * A sandbox every user can write (umask 0 while it is built; keep umask 0 while resetting it too): the SSH user of the
 * test engine is not this process's user, and only the tools' own checks, not file permissions, may keep its edits
 * inside the workspace.
 */
export function createSharedSandbox(prefix: string): Sandbox {
  const previous = process.umask(0);
  try {
    const sandbox = createSandbox(prefix);
    chmodSync(sandbox.root, 0o777);
    return sandbox;
  } finally {
    process.umask(previous);
  }
}

/**
 * The Docker and SSH engines of test/environments over `sandbox`: a container (no network) with the sandbox's root
 * bind-mounted at the same path, and the test sshd with the workspace as its root. Each is either ready or says why
 * it is unavailable (run `eval "$(bash test/environments/setup-ci.sh)"`).
 */
export async function remoteSandboxEngines(
  sandbox: Sandbox,
): Promise<Array<RemoteSandboxEngine | { name: 'docker' | 'ssh'; unavailable: string }>> {
  const engines: Array<RemoteSandboxEngine | { name: 'docker' | 'ssh'; unavailable: string }> = [];
  for (const engine of ENGINES) {
    // Podman speaks the same Docker API, checked by the conformance suite; the stress runs stay on Docker and SSH.
    if (engine.name === 'local' || engine.name === 'podman') continue;
    const name = engine.name;
    const reason = await engine.unavailable();
    if (reason !== undefined) {
      engines.push({ name, unavailable: reason });
      continue;
    }
    if (name === 'docker') {
      const client = new Dockerode();
      const container = await client.createContainer({
        Image: process.env.TOOLHOST_TEST_DOCKER_IMAGE ?? 'toolhost-test:busybox',
        Cmd: ['/bin/sh', '-c', 'exec sleep 100000'],
        HostConfig: { NetworkMode: 'none', Binds: [`${sandbox.root}:${sandbox.root}`] },
      });
      await container.start();
      engines.push({
        name,
        environment: () => createDockerEnvironment({ container: container.id, root: sandbox.workspace }),
        cleanup: async () => {
          await container.remove({ force: true }).catch(() => undefined);
        },
      });
    } else {
      const settings = { ...sshSettings()!, root: sandbox.workspace };
      engines.push({ name, environment: () => createSshEnvironment(settings), cleanup: async () => {} });
    }
  }
  return engines;
}
