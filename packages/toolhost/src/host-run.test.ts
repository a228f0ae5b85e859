import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createToolHost, gptTokenizer, type ToolHost, type ToolResult } from './index.js';

const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

function host(options: { onOutput?: (sessionId: number, chunk: string) => void } = {}): { host: ToolHost; root: string } {
  const root = mkdtempSync(join(tmpdir(), 'toolhost-run-'));
  const created = createToolHost({ workspace: root, shellProfile: 'unix_like', onOutput: options.onOutput });
  cleanups.push(async () => {
    await created.close();
    rmSync(root, { recursive: true, force: true });
  });
  return { host: created, root };
}

describe('host.run on a real host', () => {
  it('answers with the output and exit code as data', async () => {
    const { host: tools } = host();
    const run = await tools.run('echo hi; echo err >&2; exit 3');
    expect(run).toMatchObject({ ok: true, output: 'hi\nerr\n', exitCode: 3, timedOut: false, cancelled: false, truncated: false });
    expect(run.result.data?.exit_code).toBe(3);
    expect(run.wallTimeMs).toEqual(expect.any(Number));
  });

  it('runs in the given folder, and polls a command that outlives one answer', async () => {
    const { host: tools } = host();
    await tools.run('mkdir sub');
    const results: ToolResult[] = [];
    const run = await tools.run('sleep 0.5; pwd', { workdir: 'sub', onResult: (result) => results.push(result) });
    expect(run).toMatchObject({ ok: true, exitCode: 0, timedOut: false });
    expect(run.output.trim().endsWith('/sub')).toBe(true);
    expect(results.length).toBeGreaterThanOrEqual(1);
  });

  it('kills a command still running at timeoutMs and says it timed out', async () => {
    const { host: tools, root } = host();
    const run = await tools.run('echo begun; sleep 5; echo never > late.txt', { timeoutMs: 600 });
    expect(run).toMatchObject({ ok: true, timedOut: true, cancelled: false });
    expect(run.output).toContain('begun');
    expect(existsSync(join(root, 'late.txt'))).toBe(false);
  });

  it('kills the command when the signal is aborted and says it was cancelled', async () => {
    let seen: () => void = () => {};
    const started = new Promise<void>((resolve) => (seen = resolve));
    const { host: tools, root } = host({ onOutput: (_id, chunk) => chunk.includes('started') && seen() });
    const controller = new AbortController();
    const pending = tools.run('echo started; sleep 30; echo never > late.txt', { signal: controller.signal });
    await started;
    controller.abort();
    const run = await pending;
    expect(run).toMatchObject({ ok: true, cancelled: true, timedOut: false, exitCode: 137 });
    expect(run.output).toContain('started');
    expect(run.output).not.toContain('Note: the call was cancelled');
    expect(existsSync(join(root, 'late.txt'))).toBe(false);
  });

  it('fits each answer to maxOutputTokens and says output was left out', async () => {
    const { host: tools } = host();
    const run = await tools.run('seq 1 20000', { maxOutputTokens: 200 });
    expect(run).toMatchObject({ ok: true, exitCode: 0, truncated: true });
    expect(run.output).toContain('1\n2\n');
    expect(run.output).toContain('20000');
    expect(run.output).toMatch(/tokens truncated/);
    expect(gptTokenizer.count(run.output)).toBeLessThan(200);
  });

  it('applies a patch sent as the command without running it, its whole answer the output', async () => {
    const { host: tools, root } = host();
    const run = await tools.run("apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: a.txt\n+one\n*** End Patch\nEOF");
    expect(run.ok).toBe(true);
    expect(run.output).toBe(run.result.output);
    expect(run.output).toContain('a.txt');
    expect(existsSync(join(root, 'a.txt'))).toBe(true);
  });

  it('answers a command that cannot run with ok false and the error answer', async () => {
    const { host: tools } = host();
    const run = await tools.run('true', { workdir: '../outside' });
    expect(run).toMatchObject({ ok: false, output: '', exitCode: undefined, timedOut: false, cancelled: false });
    expect(run.result.error?.code).toBe('outside_workspace');
  });

  it('throws host_closed once the host is closed', async () => {
    const { host: tools } = host();
    await tools.close();
    await expect(tools.run('true')).rejects.toMatchObject({ code: 'host_closed' });
  });
});
