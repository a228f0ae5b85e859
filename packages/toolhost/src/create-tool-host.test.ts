import { mkdirSync, mkdtempSync, rmSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createLocalEnvironment } from '@toolhost/exec';
import { skipWhen } from '../../../test/skip-reason.js';
import { ToolHostError, approximateTokenizer, createToolHost, gptTokenizer } from './index.js';
import { threadCount as threads } from '../../../test/helpers/proc-scan.js';

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
    [{ workspace: dir, codeSearch: 'off' }],
    [{ workspace: dir, codeSearch: { index: 'off' } }],
    [{ workspace: dir, codeSearch: { index: { cacheDir: 'relative/cache' } } }],
    [{ workspace: dir, codeSearch: { index: { cacheDir: true } } }],
    [{ workspace: dir, codeSearch: { index: { watch: 'yes' } } }],
    [{ workspace: dir, codeSearch: { index: { cacheLimits: 30 } } }],
    [{ workspace: dir, codeSearch: { index: { cacheLimits: { maxAgeMs: -1 } } } }],
    [{ workspace: dir, codeSearch: { index: { cacheLimits: { maxBytes: '1 GB' } } } }],
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

  it('suggests rg where commands find it, grep -rn where they do not; the example command runs as given', async () => {
    const workspace = mkdtempSync(join(dir, 'example-'));
    mkdirSync(join(workspace, 'src'));
    writeFileSync(join(workspace, 'src', 'server.ts'), 'export function handleRequest() {}\n');
    const withRipgrep = createToolHost({ workspace, profile: 'advanced', shellProfile: 'unix_like' });
    // A PATH of system folders only, which hold no rg here (the local environment adds the bundled one before the policy).
    const withoutRipgrep = createToolHost({
      workspace,
      profile: 'advanced',
      shellProfile: 'unix_like',
      shellEnvironment: { set: { PATH: '/usr/bin:/bin' } },
    });
    try {
      for (const host of [withRipgrep, withoutRipgrep]) {
        const example = JSON.parse(
          host.tools[0].description
            .split('\n')
            .at(-1)!
            .replace(/^Example: /, ''),
        ) as { cmd: string };
        const result = await host.call('exec_command', { ...example, yield_time_ms: 20_000 });
        expect(result.data?.exit_code, example.cmd).toBe(0);
        expect(result.output).toContain('server.ts:1:export function handleRequest() {}');
        expect(result.data?.wall_time_ms as number, example.cmd).toBeLessThan(5_000);
      }
      expect(withRipgrep.shell.ripgrep).toBe(true);
      expect(withRipgrep.tools[0].description).toContain('Example: {"cmd":"rg -n \\"handleRequest\\" .","workdir":"src"}');
      expect((await withRipgrep.call('exec_command', { cmd: 'rg --version' })).data?.exit_code).toBe(0);
      expect(withoutRipgrep.shell.ripgrep).toBe(false);
      for (const tool of withoutRipgrep.tools) expect(tool.description, tool.name).not.toMatch(/\brg\b/);
      expect(withoutRipgrep.tools.find((tool) => tool.name === 'code_search')?.description).toContain(
        'For regular expressions, run `grep -rn` through exec_command.',
      );
      expect((await withoutRipgrep.call('exec_command', { cmd: 'rg --version' })).data?.exit_code).toBe(127);
    } finally {
      await withRipgrep.close();
      await withoutRipgrep.close();
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

  it('keeps the exec header at the smallest budget: exit code or session, and where the whole output is', async () => {
    const host = createToolHost({ workspace: dir });
    try {
      const exited = await host.call('exec_command', { cmd: 'seq 1 20000; exit 3', max_output_tokens: 1 });
      expect(exited.output.split('\n')).toContain('Process exited with code 3');
      expect(exited.output).toContain(`Full output: ${String(exited.data?.spool_path)}`);
      expect(gptTokenizer.count(exited.output)).toBeLessThanOrEqual(100);
      const running = await host.call('exec_command', { cmd: 'seq 1 20000; exec sleep 60', yield_time_ms: 250, max_output_tokens: 1 });
      expect(running.output.split('\n')).toContain(`Process running with session ID ${String(running.data?.session_id)}`);
      expect(running.output).toContain(`Full output: ${String(running.data?.spool_path)}`);
      expect(gptTokenizer.count(running.output)).toBeLessThanOrEqual(100);
    } finally {
      await host.close();
    }
  });

  it('never throws for model mistakes and throws host_closed after close()', async () => {
    const host = createToolHost({ workspace: dir, tokenizer: approximateTokenizer });
    for (const [name, args] of [
      ['nope', {}],
      ['exec_command', null],
      ['exec_command', { cmd: 1 }],
      ['unified_file', {}],
    ] as const) {
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
    const result = await withCatalog.call('big_report', { max_output_tokens: 100 });
    expect(result.ok).toBe(true);
    expect(result.data?.truncated).toBe(true);
    const spoolPath = String(result.data?.spool_path);
    expect(existsSync(spoolPath)).toBe(true);
    await withCatalog.close();
    expect(existsSync(spoolPath)).toBe(false);

    const host = createToolHost({ workspace: dir, spoolDir, catalog: entries });
    const spooled = await host.call('big_report', { max_output_tokens: 100 });
    expect(String(spooled.data?.spool_path).startsWith(spoolDir)).toBe(true);
    expect(readdirSync(spoolDir)).toHaveLength(1);
    await host.close();
    // A caller-supplied spool folder is kept; only the files the host wrote are removed.
    expect(existsSync(spoolDir)).toBe(true);
    expect(readdirSync(spoolDir)).toEqual([]);
  });
});

describe('codeSearch.index', () => {
  // A worker thread is an OS thread of this process: the count in /proc shows whether the index started one.
  const linux = process.platform === 'linux' && existsSync('/proc/self/status');
  // The index runs on any platform; these tests count its worker thread in /proc.
  const linuxOnly = skipWhen(linux ? undefined : 'counts threads in /proc: Linux only');
  const workspaceWith = (name: string) => {
    const root = mkdtempSync(join(dir, name));
    writeFileSync(join(root, 'widget.ts'), 'export function makeWidget() {\n  return 1;\n}\n');
    writeFileSync(join(root, 'use.ts'), "import { makeWidget } from './widget';\nmakeWidget();\n");
    return root;
  };
  const definitionOf = async (host: ReturnType<typeof createToolHost>) => {
    const result = await host.call('code_search', { query: 'makeWidget', result_types: ['definition'] });
    expect(result.ok).toBe(true);
    expect(result.output).toContain('widget.ts:1');
  };

  it('keeps the index in the given cacheDir, on a worker thread, within its cacheLimits', linuxOnly, async () => {
    const cacheDir = mkdtempSync(join(dir, 'cache-'));
    // Another workspace's index, recent: only the size limit can take it.
    const other = `index-${'b'.repeat(24)}.v8`;
    writeFileSync(join(cacheDir, other), 'x');
    const before = threads();
    const host = createToolHost({
      workspace: workspaceWith('indexed-'),
      profile: 'advanced',
      codeSearch: { index: { cacheDir, cacheLimits: { maxBytes: 0 } } },
    });
    await definitionOf(host);
    await vi.waitFor(
      () => expect(readdirSync(cacheDir).filter((name) => /^index-[0-9a-f]{24}\.v8$/.test(name) && name !== other)).toHaveLength(1),
      { timeout: 60_000, interval: 25 },
    );
    await vi.waitFor(() => expect(readdirSync(cacheDir)).not.toContain(other), { timeout: 60_000, interval: 25 });
    expect(threads()).toBeGreaterThan(before);
    await host.close();
  });

  it('watch: false still sees an edit made behind the host at the next search', linuxOnly, async () => {
    const workspace = workspaceWith('unwatched-');
    const host = createToolHost({ workspace, profile: 'advanced', codeSearch: { index: { cacheDir: false, watch: false } } });
    await definitionOf(host);
    writeFileSync(join(workspace, 'later.ts'), 'export function makeGizmo() {}\n');
    const result = await host.call('code_search', { query: 'makeGizmo', result_types: ['definition'] });
    expect(result.output).toContain('later.ts:1');
    await host.close();
  });

  it('index: false starts no worker and answers by scanning', linuxOnly, async () => {
    const before = threads();
    const host = createToolHost({ workspace: workspaceWith('scanned-'), profile: 'advanced', codeSearch: { index: false } });
    await definitionOf(host);
    const usages = await host.call('code_search', { query: 'makeWidget', result_types: ['usage'] });
    expect(usages.output).toContain('use.ts:2');
    expect(threads()).toBe(before);
    await host.close();
  });
});

describe('call cancellation and provider-native helpers', () => {
  it('kills the running command when the call is cancelled and reports its exit', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolhost-cancel-'));
    let seen: () => void = () => {};
    const started = new Promise<void>((resolve) => (seen = resolve));
    const host = createToolHost({
      workspace: dir,
      shellProfile: 'unix_like',
      onOutput: (_id, chunk) => chunk.includes('started') && seen(),
    });
    try {
      const controller = new AbortController();
      const pending = host.call('exec_command', { cmd: 'echo started; sleep 30', yield_time_ms: 30_000 }, { signal: controller.signal });
      await started;
      controller.abort();
      const result = await pending;
      expect(result.output).toContain('started');
      expect(result.output).toContain('Note: the call was cancelled, so the command and every process it started were killed.');
      expect(result.data?.exit_code).toBe(137);
      expect(result.data?.session_id).toBeUndefined();
    } finally {
      await host.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads files and folders inside the workspace only, and budgets text like tool output', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolhost-read-'));
    writeFileSync(join(dir, 'a.txt'), '\ufeffone\r\ntwo\r\n');
    const host = createToolHost({ workspace: dir });
    try {
      expect(await host.readPath('a.txt')).toEqual({ ok: true, kind: 'file', path: 'a.txt', text: 'one\r\ntwo\r\n', bom: true });
      expect(await host.readPath('.')).toEqual({ ok: true, kind: 'directory', path: '', entries: ['a.txt'] });
      expect(await host.readPath('../etc/passwd')).toMatchObject({ ok: false, error: { code: 'outside_workspace' } });
      expect(await host.readPath('missing.txt')).toMatchObject({ ok: false, error: { code: 'tool_failed' } });
      const long = await host.budget('long', 'word '.repeat(5000), 50);
      expect(long.truncated).toBe(true);
      expect(long.spool_path).toEqual(expect.any(String));
      expect(await host.budget('short', 'hello')).toEqual({ output: 'hello', truncated: false });
    } finally {
      await host.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
