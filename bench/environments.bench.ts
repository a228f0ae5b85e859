// Remote environments against their natural baselines, measured in the same run:
// 1. `exec_command true` in a Docker container through toolhost against the `docker exec <container> true` CLI;
// 2. one apply_patch updating 50 files, in a Docker container and on an SSH host against the same patch locally.
// Needs the engines of test/environments (eval "$(bash test/environments/setup-ci.sh)"). Run: npm run bench -- environments
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { approximateTokenizer, type Environment } from '@toolhost/core';
import { createLocalEnvironment } from '@toolhost/exec';
import { createToolHost, type ToolHost } from 'toolhost';
import { startBenchEngine } from './bench-engines.js';
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
  const started = await startBenchEngine('docker');
  if (typeof started === 'string') {
    console.log(`SKIPPED: ${started}`);
    return;
  }
  const localRoot = mkdtempSync(join(tmpdir(), 'toolhost-bench-env-'));
  const hosts: ToolHost[] = [];
  try {
    const dockerHost = host(started.environment);
    hosts.push(dockerHost);

    const cli = await timed(EXEC_ROUNDS, EXEC_WARMUP, () => {
      const result = spawnSync('docker', ['exec', started.prepared.docker!.container.id, 'true']);
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

    const ssh = await startBenchEngine('ssh');
    if (typeof ssh === 'string') {
      console.log(`SSH SKIPPED: ${ssh}`);
      return;
    }
    const sshTools = host(ssh.environment);
    try {
      const overSsh = await patchRounds(sshTools);
      console.log(
        `apply_patch over ${FILES} files: SSH ${median(overSsh).toFixed(1)} ms (${(median(overSsh) / median(local)).toFixed(1)}x local, same run)`,
      );
    } finally {
      await sshTools.close();
      await ssh.remove();
    }
  } finally {
    for (const tools of hosts) await tools.close();
    await started.remove();
    rmSync(localRoot, { recursive: true, force: true });
  }
}
