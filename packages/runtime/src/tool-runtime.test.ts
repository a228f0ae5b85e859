import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import {
  ErrorCode,
  ToolHostError,
  approximateTokenizer,
  createMemorySpool,
  createMemoryWorkspace,
  maxOutputTokensSchema,
  MAX_OUTPUT_TOKENS_FLOOR,
  okResult,
  type ToolImplementation,
} from '@toolhost/core';
import { createToolRuntime } from './tool-runtime.js';
import type { BuiltinImplementations } from './tool-engines.js';
import { resolveShellProfile } from '@toolhost/profiles';

function recordingTool(name: string, output: (args: Record<string, unknown>) => string = () => `${name} ran`) {
  const calls: Record<string, unknown>[] = [];
  const implementation: ToolImplementation = {
    name,
    schema: z.strictObject({
      cmd: z.string().optional(),
      session_id: z.int().optional(),
      chars: z.string().optional(),
      input: z.string().optional(),
      query: z.string().optional(),
      max_output_tokens: maxOutputTokensSchema,
    }),
    async execute(args, context) {
      calls.push({ ...args, budget: context.maxOutputTokens });
      return okResult(output(args));
    },
  };
  return { implementation, calls };
}

function makeRuntime(overrides: Partial<BuiltinImplementations> = {}) {
  const exec = recordingTool('exec_command', (args) => (typeof args.cmd === 'string' ? args.cmd : ''));
  const spool = createMemorySpool();
  const runtime = createToolRuntime({
    profile: 'advanced',
    guidance: resolveShellProfile('unix_like', { platform: 'linux', env: {} }),
    workspace: createMemoryWorkspace(),
    spool,
    tokenizer: approximateTokenizer,
    implementations: {
      exec_command: exec.implementation,
      write_stdin: recordingTool('write_stdin').implementation,
      apply_patch: recordingTool('apply_patch').implementation,
      code_search: recordingTool('code_search').implementation,
      ...overrides,
    },
  });
  return { runtime, exec, spool };
}

describe('max_output_tokens preflight', () => {
  const malformed: [string, unknown][] = [
    ['"100"', '100'],
    ['1.5', 1.5],
    ['0', 0],
    ['-1', -1],
    ['50001', 50_001],
    ['null', null],
    ['true', true],
  ];
  for (const tool of ['exec_command', 'write_stdin', 'apply_patch', 'search_tools', 'code_search']) {
    it.each(malformed)(`${tool} rejects %s before dispatch`, async (_label, value) => {
      const { runtime, exec } = makeRuntime();
      const result = await runtime.call(tool, { cmd: 'x', session_id: 1, chars: '', input: 'x', query: 'x', max_output_tokens: value });
      expect(result).toEqual({
        ok: false,
        output: 'Error [invalid_arguments]: max_output_tokens must be an integer between 1 and 50000',
        error: { code: 'invalid_arguments', message: 'max_output_tokens must be an integer between 1 and 50000' },
      });
      expect(exec.calls).toEqual([]);
    });
  }

  it('passes the default of 10000 and an explicit value to the tool', async () => {
    const { runtime, exec } = makeRuntime();
    await runtime.call('exec_command', { cmd: 'a' });
    await runtime.call('exec_command', { cmd: 'b', max_output_tokens: 50_000 });
    expect(exec.calls.map((c) => c.budget)).toEqual([10_000, 50_000]);
  });
});

describe('dispatch', () => {
  it.each([
    ['unified_exec', 'exec_command'],
    ['unified_file', 'apply_patch'],
    ['unified_search', 'code_search'],
  ])('refuses legacy %s and names %s', async (legacy, replacement) => {
    const { runtime } = makeRuntime();
    expect(runtime.tools.map((t) => t.name)).not.toContain(legacy);
    const result = await runtime.call(legacy, {});
    expect(result.ok).toBe(false);
    expect(result.error?.code).toBe(ErrorCode.LegacyTool);
    expect(result.output).toContain(replacement);
  });

  it('answers an unknown tool with unknown_tool and the available names', async () => {
    const { runtime } = makeRuntime();
    const result = await runtime.call('read_file', { path: 'x' });
    expect(result.error?.code).toBe('unknown_tool');
    expect(result.output).toContain('exec_command, write_stdin, apply_patch, search_tools, code_search');
  });

  it('rejects unknown fields and wrong types, naming the field', async () => {
    const { runtime } = makeRuntime();
    const extra = await runtime.call('exec_command', { cmd: 'ls', colour: true });
    expect(extra.error?.code).toBe('invalid_arguments');
    expect(extra.output).toContain('unknown field "colour"');
    const wrong = await runtime.call('exec_command', { cmd: 42 });
    expect(wrong.output).toContain('"cmd" must be a string, received number');
    const missing = await runtime.call('search_tools', {});
    expect(missing.output).toContain('missing required field "query"');
  });

  it.each([[[1, 2]], ['not json'], [42], [new Date()]])('rejects non-object arguments %j', async (args) => {
    const { runtime } = makeRuntime();
    const result = await runtime.call('exec_command', args);
    expect(result.error?.code).toBe('invalid_arguments');
  });

  it('accepts arguments as a JSON string', async () => {
    const { runtime, exec } = makeRuntime();
    const result = await runtime.call('exec_command', '{"cmd":"echo hi"}');
    expect(result.ok).toBe(true);
    expect(exec.calls[0].cmd).toBe('echo hi');
  });

  it('turns an exception inside a tool into an internal_error result', async () => {
    const broken: ToolImplementation = {
      ...recordingTool('apply_patch').implementation,
      execute: async () => {
        throw new Error('boom');
      },
    };
    const { runtime } = makeRuntime({ apply_patch: broken });
    const result = await runtime.call('apply_patch', { input: 'x' });
    expect(result).toMatchObject({ ok: false, error: { code: 'internal_error' } });
    expect(result.output).toContain('boom');
  });

  it('budgets oversized output and spools the complete text', async () => {
    const { runtime, spool } = makeRuntime();
    const long = Array.from({ length: 2000 }, (_, i) => `row ${i}`).join('\n');
    const result = await runtime.call('exec_command', { cmd: long, max_output_tokens: 100 });
    expect(approximateTokenizer.count(result.output)).toBeLessThanOrEqual(100);
    expect(result.output).toMatch(/tokens truncated… Full output: memory:\/\/spool\//);
    expect(spool.read(String(result.data?.spool_path))).toBe(long);
  });

  it('fits error results into the budget too, naming long or many fields briefly', async () => {
    const { runtime } = makeRuntime();
    const args: Record<string, unknown> = { cmd: 'ls', max_output_tokens: 100 };
    for (let i = 0; i < 1000; i++) args[`field_${i}_${'x'.repeat(100)}`] = i;
    const result = await runtime.call('exec_command', args);
    expect(result.error?.code).toBe('invalid_arguments');
    expect(approximateTokenizer.count(result.output)).toBeLessThanOrEqual(100);
    const huge = await runtime.call('exec_command', { cmd: 'ls', ['k'.repeat(1_000_000)]: 1 });
    expect(huge.output.length).toBeLessThan(1000);
  });

  it("keeps a tool's own spool file when the output still has to be cut", async () => {
    const spooling: ToolImplementation = {
      ...recordingTool('exec_command').implementation,
      execute: async () => okResult('header\n' + 'x '.repeat(5000), { spool_path: '/spool/complete.log' }),
    };
    const { runtime, spool } = makeRuntime({ exec_command: spooling });
    const result = await runtime.call('exec_command', { cmd: 'x', max_output_tokens: 100 });
    expect(result.data?.spool_path).toBe('/spool/complete.log');
    expect(result.output).toContain('Full output: /spool/complete.log');
    expect(approximateTokenizer.count(result.output)).toBeLessThanOrEqual(100);
    expect(spool.read('memory://spool/0001-exec_command.txt')).toBeUndefined();
  });

  it('fits a budget under the floor to the floor: the answer keeps its status and the spool path', async () => {
    const { runtime, exec, spool } = makeRuntime();
    const long = Array.from({ length: 2000 }, (_, i) => `row ${i}`).join('\n');
    for (const max_output_tokens of [1, 99]) {
      const result = await runtime.call('exec_command', { cmd: long, max_output_tokens });
      expect(exec.calls.at(-1)).toMatchObject({ max_output_tokens, budget: MAX_OUTPUT_TOKENS_FLOOR });
      expect(approximateTokenizer.count(result.output)).toBeLessThanOrEqual(MAX_OUTPUT_TOKENS_FLOOR);
      expect(result.output).toMatch(/…\d+ tokens truncated… Full output: memory:\/\/spool\//);
      expect(spool.read(String(result.data?.spool_path))).toBe(long);
    }
    const budgeted = await runtime.budget('report', 'word '.repeat(5000), 1);
    expect(budgeted.truncated).toBe(true);
    expect(approximateTokenizer.count(budgeted.output)).toBeGreaterThan(50);
    expect(approximateTokenizer.count(budgeted.output)).toBeLessThanOrEqual(MAX_OUTPUT_TOKENS_FLOOR);
  });

  it('throws ToolHostError host_closed after close()', async () => {
    const { runtime } = makeRuntime();
    await runtime.close();
    await expect(runtime.call('exec_command', { cmd: 'x' })).rejects.toSatisfy(
      (error) => ToolHostError.is(error) && error.code === 'host_closed',
    );
    expect(() => runtime.nextSegment()).toThrow(ToolHostError);
  });

  it('closes every other tool when one tool throws from close() at once', async () => {
    const closed: string[] = [];
    const throwing: ToolImplementation = {
      ...recordingTool('exec_command').implementation,
      close: () => {
        throw new Error('close failed synchronously');
      },
    };
    const closing = (name: string): ToolImplementation => ({
      ...recordingTool(name).implementation,
      close: async () => void closed.push(name),
    });
    const { runtime } = makeRuntime({ exec_command: throwing, write_stdin: closing('write_stdin'), code_search: closing('code_search') });
    await runtime.close();
    expect(closed.sort()).toEqual(['code_search', 'write_stdin']);
  });
});
