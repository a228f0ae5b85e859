// Remote environments against their natural baselines, measured in the same run:
// 1. `exec_command true` in a Docker container through toolhost against the `docker exec <container> true` CLI;
// 2. one apply_patch updating 50 files, in a Docker container and on an SSH host against the same patch locally.
// Needs the engines of test/environments (eval "$(bash test/environments/setup-ci.sh)"). Run: npm run bench -- environments
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Dockerode from 'dockerode';
import { approximateTokenizer, type Environment } from '@toolhost/core';
import { createDockerEnvironment } from '@toolhost/docker';
import { createLocalEnvironment } from '@toolhost/exec';
import { createSshEnvironment } from '@toolhost/ssh';
import { createToolHost, type ToolHost } from 'toolhost';
import { median, timed } from './timing.js';

const EXEC_WARMUP = 3;
const EXEC_ROUNDS = 20;
const FILES = 50;
const PATCH_ROUNDS = 6;

function host(environment: Environment): ToolHost {
  return createToolHost({ environment, shellProfile: 'unix_like', tokenizer: approximateTokenizer, verification: { threshold: Infinity } });
}

const fileText = (i: number, variant: string) =>
  Array.from({ length: 200 }, (_, line) => (line === 100 ? `const marker${i} = '${variant}';` : `// file ${i} line ${line}`)).join('\n') +
  '\n';

function addAll(): string {
  const body = Array.from(
    { length: FILES },
    (_, i) =>
      `*** Add File: pkg/file${i}.ts\n${fileText(i, 'a')
        .trimEnd()
        .split('\n')
        .map((line) => `+${line}`)
        .join('\n')}`,
  );
  return `*** Begin Patch\n${body.join('\n')}\n*** End Patch`;
}

function updateAll(from: string, to: string): string {
  const body = Array.from(
    { length: FILES },
    (_, i) =>
      `*** Update File: pkg/file${i}.ts\n@@\n // file ${i} line 99\n-const marker${i} = '${from}';\n+const marker${i} = '${to}';\n // file ${i} line 101`,
  );
  return `*** Begin Patch\n${body.join('\n')}\n*** End Patch`;
}

async function patchRounds(tools: ToolHost): Promise<number[]> {
  const added = await tools.call('apply_patch', { input: addAll() });
  if (!added.ok) throw new Error(`setup patch failed: ${added.output}`);
  let current = 'a';
  return timed(PATCH_ROUNDS, 1, async () => {
    const next = current === 'a' ? 'b' : 'a';
    const result = await tools.call('apply_patch', { input: updateAll(current, next) });
    if (!result.ok) throw new Error(`patch failed: ${result.output}`);
    current = next;
  });
}

export default async function run(): Promise<void> {
  const image = process.env.TOOLHOST_TEST_DOCKER_IMAGE ?? 'toolhost-test:busybox';
  const docker = new Dockerode();
  try {
    await docker.ping();
    await docker.getImage(image).inspect();
  } catch (error) {
    console.log(
      `SKIPPED: Docker or image ${image} unavailable (${error instanceof Error ? error.message : String(error)}); run eval "$(bash test/environments/setup-ci.sh)"`,
    );
    return;
  }
  const container = await docker.createContainer({
    Image: image,
    Cmd: ['/bin/sh', '-c', 'mkdir -p /work/ws && exec sleep 100000'],
    HostConfig: { NetworkMode: 'none' },
  });
  await container.start();
  const localRoot = mkdtempSync(join(tmpdir(), 'toolhost-bench-env-'));
  const hosts: ToolHost[] = [];
  try {
    let dockerEnvironment: Environment | undefined;
    for (let attempt = 0; !dockerEnvironment; attempt++) {
      dockerEnvironment = await createDockerEnvironment({ container: container.id, root: '/work/ws' }).catch((error) => {
        if (attempt > 50) throw error;
        return undefined;
      });
    }
    const dockerHost = host(dockerEnvironment);
    hosts.push(dockerHost);

    const cli = await timed(EXEC_ROUNDS, EXEC_WARMUP, () => {
      const result = spawnSync('docker', ['exec', container.id, 'true']);
      if (result.status !== 0) throw new Error(`docker exec failed: ${result.stderr.toString()}`);
    });
    const toolhost = await timed(EXEC_ROUNDS, EXEC_WARMUP, async () => {
      const result = await dockerHost.call('exec_command', { cmd: 'true' });
      if (!result.ok || !result.output.includes('exited with code 0')) throw new Error(result.output);
    });
    console.log(
      `exec_command true in Docker: median ${median(toolhost).toFixed(1)} ms (toolhost over dockerode) vs ${median(cli).toFixed(1)} ms (docker exec CLI); ratio ${(median(toolhost) / median(cli)).toFixed(2)}x (lower is better, ${EXEC_ROUNDS} rounds each)`,
    );

    const localHost = host(createLocalEnvironment({ root: localRoot }));
    hosts.push(localHost);
    const local = await patchRounds(localHost);
    const inDocker = await patchRounds(dockerHost);
    console.log(
      `apply_patch over ${FILES} files: local median ${median(local).toFixed(1)} ms; Docker ${median(inDocker).toFixed(1)} ms (${(median(inDocker) / median(local)).toFixed(1)}x local)`,
    );

    const {
      TOOLHOST_TEST_SSH_HOST: sshHost,
      TOOLHOST_TEST_SSH_PORT: port,
      TOOLHOST_TEST_SSH_USER: username,
      TOOLHOST_TEST_SSH_KEY: key,
      TOOLHOST_TEST_SSH_ROOT: sshRoot,
      TOOLHOST_TEST_SSH_KNOWN_HOSTS: knownHosts,
    } = process.env;
    if (!sshHost || !username || !key || !sshRoot || !knownHosts) {
      console.log('SSH SKIPPED: TOOLHOST_TEST_SSH_* not set; run eval "$(bash test/environments/setup-ci.sh)"');
      return;
    }
    const settings = { host: sshHost, port: Number(port ?? 22), username, privateKey: readFileSync(key), knownHosts };
    const folder = `bench-${process.pid}`;
    const base = await createSshEnvironment({ ...settings, root: sshRoot });
    await base.workspace.writeFile(`${folder}/.keep`, new Uint8Array());
    try {
      const sshTools = host(await createSshEnvironment({ ...settings, root: `${sshRoot}/${folder}` }));
      hosts.push(sshTools);
      const overSsh = await patchRounds(sshTools);
      console.log(
        `apply_patch over ${FILES} files: SSH ${median(overSsh).toFixed(1)} ms (${(median(overSsh) / median(local)).toFixed(1)}x local, same run)`,
      );
    } finally {
      const cleanup = await base.processes
        .executor('pipe')
        .spawn({ file: '/bin/sh', args: ['-c', `rm -rf ${folder}`], cwd: sshRoot, env: {}, rows: 24, cols: 80 });
      await new Promise((resolve) => cleanup.onSettled(resolve));
      await base.close();
    }
  } finally {
    for (const tools of hosts) await tools.close();
    await container.remove({ force: true }).catch(() => undefined);
    rmSync(localRoot, { recursive: true, force: true });
  }
}
