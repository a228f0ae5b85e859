import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import {
  ToolHostError,
  approximateTokenizer,
  createMemorySpool,
  createMemoryWorkspace,
  maxOutputTokensSchema,
  okResult,
} from '@toolhost/core';
import { resolveShellProfile } from '@toolhost/profiles';
import type { ToolResultFor } from './builtin-tool-specs.js';
import { forwardToolSurface } from './forward-tool-surface.js';
import { createToolRuntime } from './tool-runtime.js';
import type { ToolSurface } from './tool-surface.js';

const tool = (name: string) => ({
  name,
  schema: z.strictObject({ cmd: z.string().optional(), max_output_tokens: maxOutputTokensSchema }),
  execute: async () => okResult(`${name} ran`),
});

function runtime() {
  return createToolRuntime({
    profile: 'default',
    guidance: resolveShellProfile('unix_like', { platform: 'linux', env: {} }),
    workspace: createMemoryWorkspace({ 'a.txt': 'one\n' }),
    spool: createMemorySpool(),
    tokenizer: approximateTokenizer,
    implementations: { exec_command: tool('exec_command'), write_stdin: tool('write_stdin'), apply_patch: tool('apply_patch') },
    catalog: [{ name: 'issue_tracker', description: 'Files an issue.', inputSchema: { type: 'object' }, handler: () => 'filed' }],
  });
}

interface CountingHost extends ToolSurface {
  readonly label: string;
  readonly reads: number;
}

describe('forwardToolSurface', () => {
  it('forwards every member to the runtime, reading tools at each access', async () => {
    const inner = runtime();
    const host = forwardToolSurface<CountingHost>(inner, { label: 'host', reads: 0 });
    expect(host.catalog).toBe(inner.catalog);
    expect(host.tools.map((definition) => definition.name)).toEqual(['exec_command', 'write_stdin', 'apply_patch', 'search_tools']);
    expect(host.deferredTools.map((definition) => definition.name)).toEqual(['issue_tracker']);
    expect((await host.call('exec_command', { cmd: 'ls' })).output).toBe('exec_command ran');
    await host.call('search_tools', { query: 'issue' });
    expect(host.nextSegment().map((definition) => definition.name)).toContain('issue_tracker');
    expect(host.tools.map((definition) => definition.name)).toContain('issue_tracker');
    expect(host.deferredTools).toEqual([]);
    expect(await host.readPath('a.txt')).toEqual({ ok: true, kind: 'file', path: 'a.txt', text: 'one\n', bom: false });
    expect(await host.budget('note', 'short')).toEqual({ output: 'short', truncated: false });
    host.recordCommand('npm test', 0);
    expect(inner.gate.lastVerification).toEqual({ cmd: 'npm test', exitCode: 0 });
    expect((await host.edit([])).error?.code).toBe('unknown_tool');
    await host.close();
    expect(inner.closed).toBe(true);
    expect(() => host.nextSegment()).toThrow(ToolHostError);
  });

  it('keeps getters of the own members live and lets an own member replace a forwarded one', async () => {
    const inner = runtime();
    let reads = 0;
    const host = forwardToolSurface<CountingHost>(inner, {
      label: 'host',
      get reads() {
        return ++reads;
      },
      call: async <Name extends string>(name: Name) => okResult(`replaced ${name}`) as ToolResultFor<Name>,
    });
    expect([host.reads, host.reads]).toEqual([1, 2]);
    expect((await host.call('exec_command', { cmd: 'ls' })).output).toBe('replaced exec_command');
    expect(Object.keys(host)).not.toContain('gate');
    await host.close();
  });
});
