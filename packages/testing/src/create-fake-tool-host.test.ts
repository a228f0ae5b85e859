import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ToolHostError, approximateTokenizer } from '@toolhost/core';
import type { CatalogEntry } from '@toolhost/catalog';
import { createToolHost } from 'toolhost';
import { createFakeToolHost } from './create-fake-tool-host.js';

const EXEC_OUTPUT =
  /^Chunk ID: [0-9a-f]{6}\nWall time: \d+\.\d{4} seconds\n(Process exited with code \d+|Process running with session ID \d+)\nOriginal token count: \d+\nOutput:\n/;

const catalog: CatalogEntry[] = [
  {
    name: 'github_create_issue',
    description: 'Create a GitHub issue in a repository.',
    inputSchema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
    handler: (args) => `Created issue "${String(args.title)}" as #1`,
  },
  {
    name: 'weather_now',
    description: 'Current weather for a city.',
    inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
    handler: () => 'sunny',
    deferred: false,
  },
];

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

describe('createFakeToolHost: same surface as the real host', () => {
  for (const profile of ['default', 'advanced'] as const) {
    for (const shellProfile of ['auto', 'unix_like', 'powershell'] as const) {
      it(`lists the same tools as createToolHost (${profile}, ${shellProfile})`, async () => {
        const folder = mkdtempSync(join(tmpdir(), 'toolhost-fake-'));
        folders.push(folder);
        const real = createToolHost({ workspace: folder, profile, shellProfile, catalog });
        const fake = createFakeToolHost({ profile, shellProfile, catalog });
        try {
          expect(fake.tools).toEqual(real.tools);
          expect(fake.shell).toEqual(real.shell);
          await real.call('search_tools', { query: 'github issue' });
          await fake.call('search_tools', { query: 'github issue' });
          expect(fake.nextSegment()).toEqual(real.nextSegment());
          expect(fake.tools.map((tool) => tool.name)).toContain('github_create_issue');
        } finally {
          await real.close();
          await fake.close();
        }
      });
    }
  }

  it('rejects bad options like the real host', () => {
    expect(() => createFakeToolHost({ profile: 'huge' as never })).toThrow(ToolHostError);
    expect(() => createFakeToolHost({ shellProfile: 'fish' as never })).toThrow(/shellProfile must be one of/);
    expect(() => createFakeToolHost({ commands: [{ match: 3 as never, output: '' }] })).toThrow(/match/);
  });
});

describe('createFakeToolHost: scripted exec_command', () => {
  it('answers a scripted command in the real output format', async () => {
    const host = createFakeToolHost({ commands: [{ match: 'echo hello', output: 'hello\n' }] });
    const result = await host.call('exec_command', { cmd: 'echo hello' });
    expect(result.ok).toBe(true);
    expect(result.output).toMatch(EXEC_OUTPUT);
    expect(result.output).toContain('Process exited with code 0\n');
    expect(result.output.endsWith('Output:\nhello\n')).toBe(true);
    expect(result.data).toMatchObject({ exit_code: 0, wall_time_ms: 0, original_token_count: 2, truncated: false });
    expect(result.data).not.toHaveProperty('session_id');
  });

  it('matches a RegExp and reports the scripted exit code', async () => {
    const host = createFakeToolHost({ commands: [{ match: /^npm (run )?test/, output: 'FAIL src/a.test.ts\n', exitCode: 1 }] });
    const result = await host.call('exec_command', { cmd: 'npm test -- --run' });
    expect(result.output).toContain('Process exited with code 1');
    expect(result.data?.exit_code).toBe(1);
    expect(host.commandsRun).toEqual(['npm test -- --run']);
  });

  it('answers successive runs of a command from its sequence, the last one repeating', async () => {
    const host = createFakeToolHost({
      commands: [{ match: 'npm test', answers: [{ output: '# fail 1\n', exitCode: 1 }, { output: '# pass 1\n' }] }],
    });
    const runs = [];
    for (let run = 0; run < 3; run++) runs.push(await host.call('exec_command', { cmd: 'npm test' }));
    expect(runs.map((result) => result.data?.exit_code)).toEqual([1, 0, 0]);
    expect(runs.map((result) => result.output.split('Output:\n')[1])).toEqual(['# fail 1\n', '# pass 1\n', '# pass 1\n']);
  });

  it('answers from the workspace files: the tests fail, then pass once apply_patch fixed the code', async () => {
    const host = createFakeToolHost({
      files: { 'src/sum.js': 'export const sum = (a, b) => a - b;\n' },
      commands: [
        {
          match: 'npm test',
          answer: ({ files, run }) =>
            files['src/sum.js'].includes('a + b')
              ? { output: `# pass 1 (run ${run + 1})\n` }
              : { output: `# fail 1 (run ${run + 1})\n`, exitCode: 1 },
        },
      ],
    });
    const before = await host.call('exec_command', { cmd: 'npm test' });
    expect(before.data?.exit_code).toBe(1);
    expect(before.output).toMatch(/Output:\n# fail 1 \(run 1\)\n$/);
    const patch = await host.call('apply_patch', {
      input:
        '*** Begin Patch\n*** Update File: src/sum.js\n@@\n-export const sum = (a, b) => a - b;\n+export const sum = (a, b) => a + b;\n*** End Patch',
    });
    expect(patch.ok).toBe(true);
    const after = await host.call('exec_command', { cmd: 'npm test' });
    expect(after.data?.exit_code).toBe(0);
    expect(after.output).toMatch(/Output:\n# pass 1 \(run 2\)\n$/);
  });

  it('refuses a scripted command without exactly one kind of answer', () => {
    expect(() => createFakeToolHost({ commands: [{ match: 'ls' }] })).toThrow(/exactly one of `output`, `answers` or `answer`/);
    expect(() => createFakeToolHost({ commands: [{ match: 'ls', output: '', answers: [{ output: '' }] }] })).toThrow(/exactly one/);
    expect(() => createFakeToolHost({ commands: [{ match: 'ls', answers: [] }] })).toThrow(/non-empty `answers`/);
    expect(() => createFakeToolHost({ commands: [{ match: 'ls', answers: [{ exitCode: 1 } as never] }] })).toThrow(/string `output`/);
  });

  it('keeps a slow command running past its yield time, in virtual time', async () => {
    const host = createFakeToolHost({ commands: [{ match: 'npm run build', output: 'built\n', delayMs: 12_000 }] });
    const first = await host.call('exec_command', { cmd: 'npm run build', yield_time_ms: 5_000 });
    expect(first.output).toContain('Process running with session ID 1\n');
    expect(first.output).toContain('Wall time: 5.0000 seconds');
    expect(first.output.endsWith('Output:\n')).toBe(true);
    expect(first.data).toMatchObject({ session_id: 1, wall_time_ms: 5_000 });
    const second = await host.call('write_stdin', { session_id: 1, chars: '', yield_time_ms: 5_000 });
    expect(second.output).toContain('Process running with session ID 1');
    const third = await host.call('write_stdin', { session_id: '1', chars: '', yield_time_ms: 5_000 });
    expect(third.output).toContain('Process exited with code 0');
    expect(third.output).toContain('Wall time: 2.0000 seconds');
    expect(third.output.endsWith('Output:\nbuilt\n')).toBe(true);
    const after = await host.call('write_stdin', { session_id: 1, chars: 'x' });
    expect(after.error).toEqual({ code: 'session_exited', message: expect.stringContaining('exited with code 0') });
  });

  it('answers write_stdin from scripted replies until one exits', async () => {
    const host = createFakeToolHost({
      commands: [
        {
          match: 'python3 -i',
          output: '>>> ',
          stdin: [
            { match: 'print(1 + 1)', output: '2\n>>> ' },
            { match: /exit\(\)/, output: '', exitCode: 0 },
          ],
        },
      ],
    });
    const start = await host.call('exec_command', { cmd: 'python3 -i', yield_time_ms: 1000 });
    expect(start.output).toContain('Process running with session ID 1');
    expect(start.output.endsWith('Output:\n>>> ')).toBe(true);
    const reply = await host.call('write_stdin', { session_id: 1, chars: 'print(1 + 1)\n' });
    expect(reply.output).toContain('Process running with session ID 1');
    expect(reply.output.endsWith('Output:\n2\n>>> ')).toBe(true);
    expect(reply.output).toContain('Wall time: 0.2500 seconds');
    const done = await host.call('write_stdin', { session_id: 1, chars: 'exit()\n' });
    expect(done.output).toContain('Process exited with code 0');
    expect(done.data).toMatchObject({ exit_code: 0 });
    expect(done.data).not.toHaveProperty('session_id');
  });

  it('interrupts a session on Ctrl-C', async () => {
    const host = createFakeToolHost({ commands: [{ match: 'tail -f log', output: 'line\n', stdin: [] }] });
    await host.call('exec_command', { cmd: 'tail -f log' });
    const result = await host.call('write_stdin', { session_id: 1, chars: '\u0003' });
    expect(result.output).toContain('Process exited with code 130');
  });

  it('tells unknown and exited sessions apart', async () => {
    const host = createFakeToolHost({
      commands: [
        { match: 'true', output: '' },
        { match: 'sleep 60', output: '', delayMs: 60_000 },
      ],
    });
    const fast = await host.call('exec_command', { cmd: 'true' });
    expect(fast.data).toEqual({ wall_time_ms: 0, original_token_count: 0, truncated: false, exit_code: 0 });
    const slow = await host.call('exec_command', { cmd: 'sleep 60', yield_time_ms: 250 });
    expect(slow.data?.session_id).toBe(2);
    const unknown = await host.call('write_stdin', { session_id: 42, chars: 'y\n' });
    expect(unknown.error).toEqual({
      code: 'unknown_session',
      message: expect.stringContaining('No session with ID 42. Running sessions: 2.'),
    });
    // Like the real host: session 1 exited before its id was ever shown, so the id is unknown rather than exited.
    const never = await host.call('write_stdin', { session_id: 1, chars: '' });
    expect(never.error).toEqual({
      code: 'unknown_session',
      message: expect.stringContaining('No session with ID 1. Running sessions: 2.'),
    });
    await host.call('write_stdin', { session_id: 2, chars: '', yield_time_ms: 30_000 });
    const done = await host.call('write_stdin', { session_id: 2, chars: '', yield_time_ms: 30_000 });
    expect(done.data?.exit_code).toBe(0);
    const exited = await host.call('write_stdin', { session_id: 2, chars: '' });
    expect(exited.error).toEqual({ code: 'session_exited', message: expect.stringContaining('Session 2 has already exited with code 0') });
    expect(exited.data).toEqual({ exit_code: 0 });
  });

  it('returns a clear ok:false result for an unscripted command', async () => {
    const host = createFakeToolHost({ commands: [{ match: 'ls', output: 'a\n' }] });
    const result = await host.call('exec_command', { cmd: 'rm -rf /' });
    expect(result.ok).toBe(false);
    expect(result.error?.code).toBe('tool_failed');
    expect(result.output).toContain('no scripted command matching "rm -rf /" (scripted: ls)');
    expect(host.calls).toHaveLength(1);
  });

  it('throws unscripted_command when strict', async () => {
    const host = createFakeToolHost({ strict: true });
    await expect(host.call('exec_command', { cmd: 'make' })).rejects.toMatchObject({ name: 'ToolHostError', code: 'unscripted_command' });
  });

  it('keeps workdir inside the workspace', async () => {
    const host = createFakeToolHost({ files: { 'src/a.ts': 'x' }, commands: [{ match: 'ls', output: 'a.ts\n' }] });
    expect((await host.call('exec_command', { cmd: 'ls', workdir: 'src' })).ok).toBe(true);
    expect((await host.call('exec_command', { cmd: 'ls', workdir: '/workspace/src' })).ok).toBe(true);
    expect((await host.call('exec_command', { cmd: 'ls', workdir: '../etc' })).error?.code).toBe('outside_workspace');
    expect((await host.call('exec_command', { cmd: 'ls', workdir: '/etc' })).error?.code).toBe('outside_workspace');
    expect((await host.call('exec_command', { cmd: 'ls', workdir: 'missing' })).error?.code).toBe('spawn_failed');
  });

  it('budgets large output and spools the whole text', async () => {
    const big = Array.from({ length: 2000 }, (_, i) => `line ${i}`).join('\n') + '\n';
    const host = createFakeToolHost({ commands: [{ match: 'seq', output: big }], tokenizer: approximateTokenizer });
    const result = await host.call('exec_command', { cmd: 'seq', max_output_tokens: 200 });
    expect(result.ok).toBe(true);
    expect(approximateTokenizer.count(result.output)).toBeLessThanOrEqual(200);
    expect(result.output).toMatch(/tokens truncated/);
    expect(result.output).toContain('line 0\n');
    expect(result.output).toContain('line 1999\n');
    expect(result.data?.truncated).toBe(true);
    expect(result.data?.original_token_count).toBe(approximateTokenizer.count(big));
    expect(host.spool.read(String(result.data?.spool_path))).toBe(big);
  });
});

describe('createFakeToolHost: shared dispatch rules', () => {
  it('validates arguments, preflights max_output_tokens and rejects unknown and legacy tools', async () => {
    const host = createFakeToolHost({ commands: [{ match: 'ls', output: '' }] });
    expect((await host.call('exec_command', {})).output).toContain('missing required field "cmd"');
    expect((await host.call('exec_command', { cmd: 'ls', colour: true })).output).toContain('unknown field "colour"');
    expect((await host.call('exec_command', { cmd: 'ls', max_output_tokens: '100' })).error).toEqual({
      code: 'invalid_arguments',
      message: 'max_output_tokens must be an integer between 1 and 50000',
    });
    expect((await host.call('read_file', { path: 'x' })).error?.code).toBe('unknown_tool');
    expect((await host.call('unified_exec', { cmd: 'ls' })).error?.code).toBe('legacy_tool');
    expect(host.calls.map((call) => call.name)).toEqual(['exec_command', 'exec_command', 'exec_command', 'read_file', 'unified_exec']);
    expect(host.calls.every((call) => call.result.ok === false)).toBe(true);
  });

  it('surfaces deferred catalog tools after search_tools and nextSegment', async () => {
    const host = createFakeToolHost({ catalog });
    expect(host.tools.map((tool) => tool.name)).toEqual(['exec_command', 'write_stdin', 'apply_patch', 'search_tools', 'weather_now']);
    expect((await host.call('github_create_issue', { title: 'x' })).error?.code).toBe('unknown_tool');
    const search = await host.call('search_tools', { query: 'create github issue' });
    expect(search.output).toContain('github_create_issue');
    host.nextSegment();
    const created = await host.call('github_create_issue', { title: 'Fake works' });
    expect(created).toEqual({ ok: true, output: 'Created issue "Fake works" as #1' });
  });

  it('throws host_closed after close', async () => {
    const host = createFakeToolHost();
    await host.close();
    await expect(host.call('exec_command', { cmd: 'ls' })).rejects.toMatchObject({ code: 'host_closed' });
  });

  it('exposes the in-memory files', () => {
    const host = createFakeToolHost({ files: { 'b.txt': 'b', '/workspace/a.txt': 'a' } });
    expect(host.files()).toEqual({ 'a.txt': 'a', 'b.txt': 'b' });
  });
});

describe('createFakeToolHost: the names the model was given', () => {
  it('names renamed tools in the texts that point at them, and refuses bad toolNames', async () => {
    const host = createFakeToolHost({
      files: { 'a.txt': 'one\n' },
      toolNames: { shell: 'run_command', edit: 'edit_files' },
      verification: { threshold: 1 },
    });
    const missed = await host.call('apply_patch', { input: '*** Begin Patch\n*** Update File: a.txt\n@@\n-two\n+2\n*** End Patch' });
    expect(missed.output).toContain('Fix only what failed (re-read the file with run_command if unsure) and send the whole patch again.');
    await host.call('apply_patch', { input: '*** Begin Patch\n*** Add File: b.txt\n+b\n*** End Patch' });
    const blocked = await host.call('apply_patch', { input: '*** Begin Patch\n*** Add File: c.txt\n+c\n*** End Patch' });
    expect(blocked.output).toContain('typecheck with run_command (for example');
    expect(() => createFakeToolHost({ toolNames: { shell: 'two words' } })).toThrow('toolNames.shell must be a tool name');
    expect(() => createFakeToolHost({ toolNames: { exec: 'x' } as never })).toThrow('toolNames has no field "exec"');
  });
});
