import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import Dockerode from 'dockerode';
import type { Environment, WorkspaceDurability } from '@toolhost/core';
import { createDockerEnvironment } from '@toolhost/docker';
import { createLocalEnvironment } from '@toolhost/exec';
import { createSshEnvironment } from '@toolhost/ssh';
import { skipWhen } from '../skip-reason.js';

/** One engine the conformance suite runs against. */
export interface Engine {
  name: 'local' | 'docker' | 'podman' | 'ssh';
  /** Why the engine cannot be used here, or undefined when it can. */
  unavailable(): Promise<string | undefined>;
  /** A fresh, empty workspace folder in the engine. */
  prepare(): Promise<PreparedEngine>;
}

/** A prepared engine: environments over one workspace folder, and its removal. */
export interface PreparedEngine {
  /** A new environment over the folder (a host owns and closes it), flushing its edits unless told `process`. */
  environment(durability?: WorkspaceDurability): Promise<Environment>;
  /** Runs a shell line where the engine runs commands, outside any host (for checks). */
  probe(command: string): Promise<{ exitCode: number; output: string }>;
  /** Removes what preparing the engine made (the workspace folder, the container), once the tests are done with it. */
  cleanup(): Promise<void>;
  docker?: { container: Dockerode.Container };
}

/** Runs a shell line where the environment runs commands; its exit code and output (stderr merged). */
export async function probeWith(environment: Environment, command: string): Promise<{ exitCode: number; output: string }> {
  const process = await environment.processes.executor('pipe').spawn({
    file: '/bin/sh',
    args: ['-c', `${command} 2>&1`],
    cwd: environment.workspace.root,
    env: environment.processes.baseEnvironment(),
    rows: 24,
    cols: 80,
  });
  const chunks: Uint8Array[] = [];
  process.onData((chunk) => chunks.push(chunk));
  const exit = await new Promise<{ exitCode: number }>((resolve) => process.onSettled(resolve));
  return { exitCode: exit.exitCode, output: Buffer.concat(chunks).toString('utf8') };
}

const local: Engine = {
  name: 'local',
  unavailable: async () => (process.platform === 'win32' ? 'the suite needs a POSIX machine' : undefined),
  async prepare() {
    const root = mkdtempSync(join(tmpdir(), 'toolhost-conformance-'));
    const environment = async (durability?: WorkspaceDurability) => createLocalEnvironment({ root, ...(durability ? { durability } : {}) });
    const checker = createLocalEnvironment({ root });
    return {
      environment,
      probe: (command) => probeWith(checker, command),
      cleanup: async () => rmSync(root, { recursive: true, force: true }),
    };
  },
};

const dockerImage = () => process.env.TOOLHOST_TEST_DOCKER_IMAGE ?? 'toolhost-test:busybox';

/**
 * The socket of Podman's Docker-compatible API (`podman system service`), from TOOLHOST_TEST_PODMAN_SOCKET; the
 * same test image is loaded there (test/environments/setup-podman.sh).
 */
export const podmanSocket = () => process.env.TOOLHOST_TEST_PODMAN_SOCKET;

/** An engine that speaks the Docker API: Docker itself (DOCKER_HOST), or Podman through its compatible socket. */
function dockerApiEngine(name: 'docker' | 'podman'): Engine {
  const client = () => (name === 'podman' ? new Dockerode({ socketPath: podmanSocket() }) : new Dockerode());
  const where = () =>
    name === 'podman'
      ? `Podman (TOOLHOST_TEST_PODMAN_SOCKET=${podmanSocket()})`
      : `Docker (DOCKER_HOST=${process.env.DOCKER_HOST ?? 'default socket'})`;
  return {
    name,
    async unavailable() {
      if (name === 'podman' && !podmanSocket()) return 'TOOLHOST_TEST_PODMAN_SOCKET is not set (test/environments/setup-podman.sh sets it)';
      try {
        await client().ping();
        await client().getImage(dockerImage()).inspect();
        return undefined;
      } catch (error) {
        return `${where()} or image ${dockerImage()} is not available: ${error instanceof Error ? error.message : String(error)}`;
      }
    },
    async prepare() {
      const docker = client();
      const container = await docker.createContainer({
        Image: dockerImage(),
        Cmd: ['/bin/sh', '-c', 'mkdir -p /work/ws && exec sleep 100000'],
        HostConfig: { NetworkMode: 'none' },
      });
      await container.start();
      const environment = (durability?: WorkspaceDurability) =>
        createDockerEnvironment({ container: container.id, root: '/work/ws', docker, ...(durability ? { durability } : {}) });
      const checker = await waitForRoot(environment);
      return {
        environment,
        probe: (command) => probeWith(checker, command),
        cleanup: async () => {
          await container.remove({ force: true }).catch(() => undefined);
        },
        docker: { container },
      };
    },
  };
}

const docker = dockerApiEngine('docker');
const podman = dockerApiEngine('podman');

async function waitForRoot<T>(create: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await create();
    } catch (error) {
      if (attempt >= 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/** The test sshd's settings from setup-ci.sh's exports; its host key is trusted through the known_hosts file it wrote. */
export function sshSettings() {
  const {
    TOOLHOST_TEST_SSH_HOST: host,
    TOOLHOST_TEST_SSH_PORT: port,
    TOOLHOST_TEST_SSH_USER: username,
    TOOLHOST_TEST_SSH_KEY: key,
    TOOLHOST_TEST_SSH_ROOT: root,
    TOOLHOST_TEST_SSH_KNOWN_HOSTS: knownHosts,
  } = process.env;
  if (!host || !username || !key || !root || !knownHosts) return undefined;
  return { host, port: Number(port ?? 22), username, privateKey: readFileSync(key), root, knownHosts };
}

const ssh: Engine = {
  name: 'ssh',
  async unavailable() {
    const settings = sshSettings();
    if (!settings)
      return 'TOOLHOST_TEST_SSH_HOST/_PORT/_USER/_KEY/_ROOT/_KNOWN_HOSTS are not set (test/environments/setup-ci.sh sets them)';
    try {
      const environment = await createSshEnvironment(settings);
      await environment.close();
      return undefined;
    } catch (error) {
      return `sshd at ${settings.host}:${settings.port} is not reachable: ${error instanceof Error ? error.message : String(error)}`;
    }
  },
  async prepare() {
    const settings = sshSettings()!;
    const folder = `conformance-${randomBytes(4).toString('hex')}`;
    const base = await createSshEnvironment(settings);
    await base.workspace.writeFile(`${folder}/.keep`, new Uint8Array());
    await base.workspace.remove(`${folder}/.keep`);
    const root = `${settings.root}/${folder}`;
    const checker = await createSshEnvironment({ ...settings, root });
    return {
      environment: (durability?: WorkspaceDurability) => createSshEnvironment({ ...settings, root, ...(durability ? { durability } : {}) }),
      probe: (command) => probeWith(checker, command),
      cleanup: async () => {
        await probeWith(base, `rm -rf ${folder}`);
        await checker.close();
        await base.close();
      },
    };
  },
};

/** The command that brings up the Docker and SSH engines on this machine (it needs root and apt). */
export const ENGINE_SETUP = 'eval "$(bash test/environments/setup-ci.sh)" (needs root and apt)';

/** The command that adds Podman's Docker-compatible API beside them (after ENGINE_SETUP; root and apt too). */
export const PODMAN_SETUP = 'eval "$(bash test/environments/setup-podman.sh)" (after setup-ci.sh; needs root and apt)';

/** Options for a suite that needs `engine`: skipped with the reason `unavailable()` gave and the setup command. */
export function needsEngine(engine: Engine['name'], reason: string | undefined) {
  return skipWhen(reason === undefined ? undefined : `no ${engine} engine: ${reason}`, engine === 'podman' ? PODMAN_SETUP : ENGINE_SETUP);
}

/** The engines, in the order the suite runs them. */
export const ENGINES: Engine[] = [local, docker, podman, ssh];
