import { readFileSync } from 'node:fs';
import Dockerode from 'dockerode';
import { rgPath } from '@vscode/ripgrep';
import { afterAll, describe, expect, test } from 'vitest';
import { approximateTokenizer } from '@toolhost/core';
import { createDockerEnvironment } from '@toolhost/docker';
import { createToolHost } from 'toolhost';
import { ENGINES, needsEngine } from './engines.js';

// code_search on a remote walks and reads through the environment's workspace, and lets ripgrep list the candidate files
// inside the remote when it has one; a local search never reads the remote's root path.
const dockerMissing = await ENGINES.find((engine) => engine.name === 'docker')!.unavailable();
const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const patch = (body: string) => `*** Begin Patch\n${body}\n*** End Patch`;

describe('code_search in a Docker container', needsEngine('docker', dockerMissing), () => {
  test('the same results without rg (walk through the workspace) and with rg inside the container', async () => {
    const image = process.env.TOOLHOST_TEST_DOCKER_IMAGE ?? 'toolhost-test:busybox';
    const container = await new Dockerode().createContainer({
      Image: image,
      Cmd: ['/bin/sh', '-c', 'mkdir -p /work/ws /usr/local/bin && exec sleep 100000'],
      HostConfig: { NetworkMode: 'none' },
    });
    cleanups.push(() => container.remove({ force: true }));
    await container.start();
    let environment;
    for (let attempt = 0; !environment; attempt++) {
      environment = await createDockerEnvironment({ container: container.id, root: '/work/ws' }).catch((error) => {
        if (attempt > 50) throw error;
        return undefined;
      });
    }
    const host = createToolHost({ environment, profile: 'advanced', shellProfile: 'unix_like', tokenizer: approximateTokenizer });
    cleanups.push(() => host.close());
    const added = await host.call('apply_patch', {
      input: patch(
        '*** Add File: .gitignore\n+build/\n*** Add File: src/app.ts\n+export const remoteNeedle = 1;\n*** Add File: build/out.ts\n+export const remoteNeedle = 2;',
      ),
    });
    expect(added.ok).toBe(true);
    const query = { text: 'remoteNeedle', caseSensitive: true, start: '' };
    expect(await environment.workspace.findFilesContaining!(query)).toBeUndefined();
    const walked = await host.call('code_search', { query: 'remoteNeedle' });
    expect(walked.output).toContain('src/app.ts:1');
    expect(walked.output).not.toContain('build/out.ts');

    const bin = await createDockerEnvironment({ container: container.id, root: '/usr/local/bin' });
    await bin.workspace.writeFile('rg', readFileSync(rgPath), { mode: 0o755 });
    await bin.close();
    expect(await environment.workspace.findFilesContaining!(query)).toEqual(new Set(['src/app.ts']));
    const searched = await host.call('code_search', { query: 'remoteNeedle' });
    expect(searched.output).toBe(walked.output);
  });
});
