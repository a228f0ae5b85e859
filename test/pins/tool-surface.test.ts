// Pins the model-facing surface: every tool's JSON Schema and description per profile and shell profile.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemorySpool, createMemoryWorkspace, gptTokenizer, type ToolImplementation } from '@toolhost/core';
import { createExecTools } from '@toolhost/exec';
import { createApplyPatchTool } from '@toolhost/patch';
import { createCodeSearchTool } from '@toolhost/code-search';
import { resolveShellProfile, type ShellGuidance } from '@toolhost/profiles';
import { createToolRuntime } from '@toolhost/runtime';
import { createToolHost } from 'toolhost';

// This machine's commands find the bundled rg; a Docker container or SSH host may have none.
const guidances: Record<string, ShellGuidance> = {
  'unix_like-linux': resolveShellProfile('auto', { platform: 'linux', env: {}, ripgrep: true }),
  'unix_like-linux-without-ripgrep': resolveShellProfile('auto', { platform: 'linux', env: {}, ripgrep: false }),
  'unix_like-macos': resolveShellProfile('auto', { platform: 'darwin', env: {}, ripgrep: true }),
  'unix_like-wsl': resolveShellProfile('auto', { platform: 'linux', env: { WSL_DISTRO_NAME: 'Ubuntu' }, ripgrep: true }),
  'powershell-windows': resolveShellProfile('auto', { platform: 'win32', env: {}, ripgrep: true }),
};

function runtimeTools(profile: 'default' | 'advanced', guidance: ShellGuidance) {
  const exec = createExecTools();
  const runtime = createToolRuntime({
    profile,
    guidance,
    workspace: createMemoryWorkspace(),
    spool: createMemorySpool(),
    tokenizer: gptTokenizer,
    implementations: {
      exec_command: exec.execCommand,
      write_stdin: exec.writeStdin,
      apply_patch: createApplyPatchTool(),
      code_search: createCodeSearchTool() as ToolImplementation,
    },
  });
  return runtime.tools;
}

describe('tool surface pins', () => {
  for (const profile of ['default', 'advanced'] as const) {
    for (const [label, guidance] of Object.entries(guidances)) {
      it(`${profile} profile, ${label}`, async () => {
        await expect(JSON.stringify(runtimeTools(profile, guidance), null, 2) + '\n').toMatchFileSnapshot(
          `./__pins__/${profile}.${label}.json`,
        );
      });
    }
  }

  it('lists the seed tools in order', () => {
    const linux = guidances['unix_like-linux'];
    expect(runtimeTools('default', linux).map((t) => t.name)).toEqual(['exec_command', 'write_stdin', 'apply_patch', 'search_tools']);
    expect(runtimeTools('advanced', linux).map((t) => t.name)).toEqual([
      'exec_command',
      'write_stdin',
      'apply_patch',
      'search_tools',
      'code_search',
    ]);
  });

  it('requires cmd, session_id + chars, query; bounds max_output_tokens on every tool', () => {
    const tools = runtimeTools('advanced', guidances['unix_like-linux']);
    const byName = Object.fromEntries(
      tools.map((t) => [
        t.name,
        t.inputSchema as { required?: string[]; properties: Record<string, Record<string, unknown>>; additionalProperties?: boolean },
      ]),
    );
    expect(byName.exec_command.required).toEqual(['cmd']);
    expect(byName.write_stdin.required).toEqual(['session_id', 'chars']);
    expect(byName.apply_patch.required).toEqual(['input']);
    expect(byName.search_tools.required).toEqual(['query']);
    expect(byName.code_search.required).toEqual(['query']);
    expect(Object.keys(byName.code_search.properties)).toEqual([
      'query',
      'path',
      'file_types',
      'result_types',
      'max_results',
      'max_output_tokens',
    ]);
    for (const tool of tools) {
      const schema = byName[tool.name];
      expect(schema.additionalProperties).toBe(false);
      expect(schema.properties.max_output_tokens).toMatchObject({ type: 'integer', minimum: 1, maximum: 50000, default: 10000 });
      expect(JSON.stringify(schema)).not.toContain('$schema');
      expect(tool.description).not.toMatch(/unified_|sandbox_permissions|justification/);
    }
  });

  it('changes descriptions only, never schemas, across shell profiles', () => {
    const unix = runtimeTools('advanced', guidances['unix_like-linux']);
    const powershell = runtimeTools('advanced', guidances['powershell-windows']);
    expect(unix.map((t) => t.inputSchema)).toEqual(powershell.map((t) => t.inputSchema));
    expect(unix[0].description).toContain('Example: {"cmd":"rg -n \\"handleRequest\\" .","workdir":"src"}');
    expect(powershell[0].description).toContain(
      'Example: {"cmd":"Get-ChildItem -Recurse -File | Select-String -Pattern handleRequest","workdir":"src"}',
    );
    const withoutRipgrep = runtimeTools('advanced', guidances['unix_like-linux-without-ripgrep']);
    expect(withoutRipgrep.map((t) => t.inputSchema)).toEqual(unix.map((t) => t.inputSchema));
    for (const tool of withoutRipgrep) expect(tool.description, tool.name).not.toMatch(/\brg\b/);
    expect(withoutRipgrep[0].description).toContain('Example: {"cmd":"grep -rn \\"handleRequest\\" .","workdir":"src"}');
    expect(runtimeTools('default', guidances['unix_like-macos'])[0].description).toContain('BSD-compatible flags');
  });

  it('examples stay inside the workspace: every workdir and path they name is relative', () => {
    for (const [label, guidance] of Object.entries(guidances)) {
      for (const tool of runtimeTools('advanced', guidance)) {
        const named = [...tool.description.matchAll(/"(?:workdir|path)":"([^"]*)"/g)].map((match) => match[1]);
        for (const path of named) expect(path, `${label} ${tool.name}`).toMatch(/^[\w.-]+(?:\/[\w.-]+)*$/);
      }
    }
    const powershell = (ripgrep: boolean) =>
      runtimeTools('advanced', resolveShellProfile('auto', { platform: 'win32', env: {}, ripgrep })).map((t) => t.description);
    expect(powershell(false)).toEqual(powershell(true));
  });

  it('apply_patch carries the Lark grammar for freeform providers', () => {
    const patch = runtimeTools('default', guidances['unix_like-linux']).find((t) => t.name === 'apply_patch')!;
    expect(patch.freeform?.syntax).toBe('lark');
    expect(patch.freeform?.definition).toContain('begin_patch: "*** Begin Patch" LF');
  });
});

describe('the real host exposes the pinned surface', () => {
  const dir = mkdtempSync(join(tmpdir(), 'toolhost-pins-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('matches the runtime tools for the resolved shell profile', async () => {
    const host = createToolHost({ workspace: dir, profile: 'advanced', shellProfile: 'unix_like' });
    try {
      expect(host.tools).toEqual(runtimeTools('advanced', host.shell));
    } finally {
      await host.close();
    }
  });
});
