import Dockerode from 'dockerode';
import { afterAll, describe, expect, test } from 'vitest';
import { approximateTokenizer } from '@toolhost/core';
import { createDockerEnvironment } from '@toolhost/docker';
import { createSshEnvironment } from '@toolhost/ssh';
import { createToolHost, type ToolHost } from 'toolhost';
import { ENGINES, needsEngine, sshSettings } from './engines.js';

// Engines that fail under a command: the call in flight ends with a clear note (no hang), later calls get clear
// errors or work again, and the host keeps answering. Availability is reported (and enforced in CI) by conformance.test.ts.
const docker = ENGINES.find((engine) => engine.name === 'docker')!;
const ssh = ENGINES.find((engine) => engine.name === 'ssh')!;
const dockerMissing = await docker.unavailable();
const sshMissing = await ssh.unavailable();
const hosts: ToolHost[] = [];
afterAll(async () => {
  for (const host of hosts) await host.close();
});

const patch = (body: string) => `*** Begin Patch\n${body}\n*** End Patch`;

describe('docker: the container is killed in the middle of a command', needsEngine('docker', dockerMissing), () => {
  test('the command ends with a note, later calls fail clearly, the host keeps answering, close() returns', async () => {
    const environment = await createDockerEnvironment({
      image: process.env.TOOLHOST_TEST_DOCKER_IMAGE ?? 'toolhost-test:busybox',
      root: '/work/ws',
    });
    const host = createToolHost({ environment, shellProfile: 'unix_like', tokenizer: approximateTokenizer });
    hosts.push(host);
    const running = await host.call('exec_command', { cmd: 'echo started; sleep 600', yield_time_ms: 1_000 });
    expect(running.output).toContain('Process running with session ID');
    await environment.container.kill();
    await environment.container.wait();
    const started = performance.now();
    const ended = await host.call('write_stdin', {
      session_id: (running.data as { session_id: number }).session_id,
      chars: '',
      yield_time_ms: 20_000,
    });
    expect(performance.now() - started).toBeLessThan(15_000);
    expect(ended.output).toMatch(/Process exited with code \d+/);
    expect(ended.output).toContain('the container stopped while this command ran');
    const next = await host.call('exec_command', { cmd: 'echo again' });
    expect(next.error?.code).toBe('spawn_failed');
    expect(next.output).toMatch(/not running/);
    const edit = await host.call('apply_patch', { input: patch('*** Add File: a.txt\n+x') });
    expect(edit.ok).toBe(false);
    expect(edit.error?.code).toBe('tool_failed');
    expect((await host.call('search_tools', { query: 'anything' })).ok).toBe(true);
    await host.close();
    await expect(new Dockerode().getContainer(environment.container.id).inspect()).rejects.toThrow(/no such container/i);
  });
});

describe('ssh: the connection drops in the middle of a command', needsEngine('ssh', sshMissing), () => {
  test('the command ends with a note, the next call reconnects, close() returns', async () => {
    const environment = await createSshEnvironment(sshSettings()!);
    const tools = createToolHost({ environment, shellProfile: 'unix_like', tokenizer: approximateTokenizer });
    hosts.push(tools);
    // The command's parent is the start shell, whose parent is the sshd process serving this connection: killing it
    // drops the connection.
    const started = performance.now();
    const dropped = await tools.call('exec_command', {
      cmd: 'echo started; sleep 0.3; set -- $(cat /proc/$PPID/stat); kill -9 $4; sleep 600',
      yield_time_ms: 20_000,
    });
    expect(performance.now() - started).toBeLessThan(15_000);
    expect(dropped.output).toContain('started');
    expect(dropped.output).toContain('the SSH connection dropped while this command ran');
    expect(dropped.output).toMatch(/Process exited with code 255/);
    const again = await tools.call('exec_command', { cmd: 'echo again' });
    expect(again.ok).toBe(true);
    expect(again.output).toMatch(/Output:\nagain\n$/);
    await tools.close();
  });
});
