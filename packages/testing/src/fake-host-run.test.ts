import { describe, expect, it } from 'vitest';
import { createFakeToolHost } from './index.js';

const linux = { platform: 'linux', env: {} };

describe('host.run on the fake host', () => {
  it('answers a scripted command with its output and exit code', async () => {
    const host = createFakeToolHost({ environment: linux, commands: [{ match: 'npm test', output: '1 failing\n', exitCode: 1 }] });
    expect(await host.run('npm test')).toMatchObject({ ok: true, output: '1 failing\n', exitCode: 1, timedOut: false, cancelled: false });
    await host.close();
  });

  it('reports a command that ends before the deadline in virtual time, and times out one that does not', async () => {
    const host = createFakeToolHost({
      environment: linux,
      commands: [
        { match: 'quick', output: 'done\n', delayMs: 800 },
        { match: 'slow', output: 'late\n', delayMs: 60_000 },
      ],
    });
    expect(await host.run('quick', { timeoutMs: 1_000 })).toMatchObject({ output: 'done\n', exitCode: 0, timedOut: false });
    const slow = await host.run('slow', { timeoutMs: 1_000 });
    expect(slow).toMatchObject({ ok: true, output: '', timedOut: true, exitCode: undefined });
    expect(slow.wallTimeMs).toBeGreaterThanOrEqual(1_000);
    await host.close();
  });

  it('fits the output to maxOutputTokens', async () => {
    const host = createFakeToolHost({ environment: linux, commands: [{ match: 'build', output: 'line of build output\n'.repeat(2_000) }] });
    const run = await host.run('build', { maxOutputTokens: 150 });
    expect(run).toMatchObject({ ok: true, exitCode: 0, truncated: true });
    expect(run.output).toMatch(/tokens truncated/);
    expect(run.output.length).toBeLessThan(2_000);
    await host.close();
  });

  it('answers an unscripted command with ok false', async () => {
    const host = createFakeToolHost({ environment: linux, commands: [] });
    const run = await host.run('ls');
    expect(run).toMatchObject({ ok: false, output: '', exitCode: undefined });
    expect(run.result.error?.code).toBe('tool_failed');
    await host.close();
  });
});
