import { mkdtempSync, rmSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLocalEnvironment } from '@toolhost/exec';
import { ToolHostError, approximateTokenizer, createToolHost } from './index.js';

const dir = mkdtempSync(join(tmpdir(), 'toolhost-facade-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function thrownCode(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return ToolHostError.is(error) ? error.code : 'not a ToolHostError';
  }
  return undefined;
}

describe('createToolHost', () => {
  it('is synchronous and lists the default profile', async () => {
    const host = createToolHost({ workspace: dir });
    expect(host.profile).toBe('default');
    expect(host.tools.map((t) => t.name)).toEqual(['exec_command', 'write_stdin', 'apply_patch', 'search_tools']);
    await host.close();
  });

  it.each([
    [{ workspace: 'relative/path' }],
    [{ workspace: join(dir, 'missing') }],
    [{ workspace: dir, profile: 'expert' }],
    [{ workspace: dir, shellProfile: 'zsh' }],
    [{ workspace: dir, shellEnvironment: { inherit: 'some' } }],
    [{ workspace: dir, shellEnvironment: { set: { A: 1 } } }],
    [undefined],
  ])('throws invalid_options for %j', (options) => {
    expect(thrownCode(() => createToolHost(options as never))).toBe('invalid_options');
  });

  it('runs the tools in a given environment and closes it with the host', async () => {
    const local = createLocalEnvironment({ root: dir });
    let closed = 0;
    const environment = { ...local, close: async () => void (closed += 1) };
    const host = createToolHost({ environment });
    const result = await host.call('exec_command', { cmd: 'pwd' });
    expect(result.ok).toBe(true);
    expect(result.output).toContain(dir);
    await host.close();
    expect(closed).toBe(1);
  });

  it('throws invalid_options when both workspace and environment are given', () => {
    const environment = createLocalEnvironment({ root: dir });
    expect(thrownCode(() => createToolHost({ workspace: dir, environment }))).toBe('invalid_options');
  });

  it('passes shellEnvironment to every command', async () => {
    process.env.TOOLHOST_FACADE_TEST_TOKEN = 'secret';
    process.env.TOOLHOST_FACADE_TEST_PLAIN = 'plain';
    try {
      const cmd = 'printf "%s|" "${TOOLHOST_FACADE_TEST_TOKEN-unset}" "${TOOLHOST_FACADE_TEST_PLAIN-unset}" "${HOME-unset}" "$GIVEN"';
      const byDefault = createToolHost({ workspace: dir });
      const core = createToolHost({ workspace: dir, shellEnvironment: { inherit: 'core', set: { GIVEN: 'given' } } });
      try {
        expect((await byDefault.call('exec_command', { cmd })).output.endsWith(`\nOutput:\nunset|plain|${process.env.HOME}||`)).toBe(true);
        expect((await core.call('exec_command', { cmd })).output.endsWith(`\nOutput:\nunset|unset|${process.env.HOME}|given|`)).toBe(true);
      } finally {
        await byDefault.close();
        await core.close();
      }
    } finally {
      delete process.env.TOOLHOST_FACADE_TEST_TOKEN;
      delete process.env.TOOLHOST_FACADE_TEST_PLAIN;
    }
  });

  it('throws invalid_options for a file used as workspace', () => {
    const file = join(dir, 'file.txt');
    writeFileSync(file, 'x');
    expect(thrownCode(() => createToolHost({ workspace: file }))).toBe('invalid_options');
  });

  it('throws duplicate_tool when a catalog entry shadows a built-in', () => {
    const entry = { name: 'exec_command', description: 'x', inputSchema: { type: 'object' }, handler: () => 'x' };
    expect(thrownCode(() => createToolHost({ workspace: dir, catalog: [entry] }))).toBe('duplicate_tool');
  });

  it('never throws for model mistakes and throws host_closed after close()', async () => {
    const host = createToolHost({ workspace: dir, tokenizer: approximateTokenizer });
    for (const [name, args] of [['nope', {}], ['exec_command', null], ['exec_command', { cmd: 1 }], ['unified_file', {}]] as const) {
      const result = await host.call(name, args);
      expect(result.ok).toBe(false);
      expect(typeof result.error?.code).toBe('string');
    }
    await host.close();
    await host.close();
    await expect(host.call('exec_command', { cmd: 'true' })).rejects.toMatchObject({ code: 'host_closed' });
  });

  it('removes the spool folder it created, or its own files in a given folder, on close()', async () => {
    const spoolDir = join(dir, 'spool-check');
    const entries = [
      {
        name: 'big_report',
        description: 'Prints a long report.',
        inputSchema: { type: 'object', properties: {} },
        deferred: false,
        handler: () => 'line of the report\n'.repeat(5000),
      },
    ];
    const withCatalog = createToolHost({ workspace: dir, catalog: entries });
    const result = await withCatalog.call('big_report', { max_output_tokens: 50 });
    expect(result.ok).toBe(true);
    expect(result.data?.truncated).toBe(true);
    const spoolPath = String(result.data?.spool_path);
    expect(existsSync(spoolPath)).toBe(true);
    await withCatalog.close();
    expect(existsSync(spoolPath)).toBe(false);

    const host = createToolHost({ workspace: dir, spoolDir, catalog: entries });
    const spooled = await host.call('big_report', { max_output_tokens: 50 });
    expect(String(spooled.data?.spool_path).startsWith(spoolDir)).toBe(true);
    expect(readdirSync(spoolDir)).toHaveLength(1);
    await host.close();
    // A caller-supplied spool folder is kept; only the files the host wrote are removed.
    expect(existsSync(spoolDir)).toBe(true);
    expect(readdirSync(spoolDir)).toEqual([]);
  });
});
