import { describe, expect, it } from 'vitest';
import { approximateTokenizer, createMemorySpool, createMemoryWorkspace, type ToolImplementation } from '@toolhost/core';
import { createExecTools } from '@toolhost/exec';
import { resolveShellProfile } from '@toolhost/profiles';
import { BUILTIN_TOOL_SPECS, PROFILE_TOOLS } from './builtin-tool-specs.js';
import { createBuiltinImplementations, createPatchEngine } from './tool-engines.js';
import { createToolRuntime } from './tool-runtime.js';

const guidance = resolveShellProfile('unix_like', { platform: 'linux', env: {} });

function advancedRuntime() {
  const exec = createExecTools();
  const codeSearch = {
    name: 'code_search',
    schema: BUILTIN_TOOL_SPECS[4].inputSchema,
    execute: async () => ({ ok: true as const, output: '' }),
  };
  const implementations = createBuiltinImplementations('advanced', {
    exec: () => exec,
    patch: createPatchEngine,
    codeSearch: () => codeSearch as ToolImplementation,
  });
  const runtime = createToolRuntime({
    profile: 'advanced',
    guidance,
    workspace: createMemoryWorkspace(),
    spool: createMemorySpool(),
    tokenizer: approximateTokenizer,
    implementations,
  });
  return { runtime, implementations };
}

describe('built-in tool specs', () => {
  it('list each profile in the order the model sees the tools', () => {
    expect(PROFILE_TOOLS.default).toEqual(['exec_command', 'write_stdin', 'apply_patch', 'search_tools']);
    expect(PROFILE_TOOLS.advanced).toEqual(['exec_command', 'write_stdin', 'apply_patch', 'search_tools', 'code_search']);
  });

  it('give each name once, and at most one tool each role a native tool replaces', () => {
    const names = BUILTIN_TOOL_SPECS.map((spec) => spec.name);
    expect(new Set(names).size).toBe(names.length);
    for (const role of ['shell', 'shell-input', 'edit', 'catalog'] as const) {
      expect(BUILTIN_TOOL_SPECS.filter((spec) => spec.role === role)).toHaveLength(1);
    }
  });

  it("build implementations that validate with the spec's own input schema", async () => {
    const { runtime, implementations } = advancedRuntime();
    for (const spec of BUILTIN_TOOL_SPECS) {
      if (spec.role === 'catalog') continue;
      expect(implementations[spec.name as keyof typeof implementations]?.schema).toBe(spec.inputSchema);
    }
    await runtime.close();
  });

  it("put role, annotations and output schema on host.tools, left out of the definition's JSON", async () => {
    const { runtime } = advancedRuntime();
    const exec = runtime.tools.find((tool) => tool.name === 'exec_command');
    expect(exec?.role).toBe('shell');
    expect(exec?.annotations).toEqual({ readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true });
    expect(exec?.outputSchema).toMatchObject({
      type: 'object',
      properties: { exit_code: { type: 'integer' }, session_id: { type: 'integer' } },
    });
    expect(Object.keys(exec ?? {})).toEqual(['name', 'description', 'inputSchema']);
    expect(runtime.tools.map((tool) => tool.role)).toEqual(['shell', 'shell-input', 'edit', 'catalog', 'search']);
    await runtime.close();
  });

  it("types a built-in tool's result data by its spec", async () => {
    const { runtime } = advancedRuntime();
    const result = await runtime.call('write_stdin', { session_id: 999, chars: '' });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe('unknown_session');
    const sessionId: number | undefined = result.data?.session_id;
    expect(sessionId).toBeUndefined();
    await runtime.close();
  });
});
