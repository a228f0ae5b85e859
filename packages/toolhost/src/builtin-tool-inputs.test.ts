// The written-out argument types must say what the tools' schemas accept: `npm run typecheck` checks these lines.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type * as z from 'zod';
import { searchToolsSchema } from '@toolhost/catalog';
import { codeSearchSchema } from '@toolhost/code-search';
import { execCommandSchema, writeStdinSchema } from '@toolhost/exec';
import { applyPatchSchema } from '@toolhost/patch';
import { createToolHost, type BuiltinToolInputs, type BuiltinToolName } from './index.js';

describe('BuiltinToolInputs', () => {
  it("equals each tool schema's input type", () => {
    expectTypeOf<BuiltinToolInputs['exec_command']>().toEqualTypeOf<z.input<typeof execCommandSchema>>();
    expectTypeOf<BuiltinToolInputs['write_stdin']>().toEqualTypeOf<z.input<typeof writeStdinSchema>>();
    expectTypeOf<BuiltinToolInputs['apply_patch']>().toEqualTypeOf<z.input<typeof applyPatchSchema>>();
    expectTypeOf<BuiltinToolInputs['search_tools']>().toEqualTypeOf<z.input<typeof searchToolsSchema>>();
    expectTypeOf<BuiltinToolInputs['code_search']>().toEqualTypeOf<z.input<typeof codeSearchSchema>>();
  });

  it('names every tool of the advanced profile', async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'builtin-inputs-'));
    const host = createToolHost({ workspace, profile: 'advanced', codeSearch: { index: false } });
    const names: BuiltinToolName[] = ['exec_command', 'write_stdin', 'apply_patch', 'search_tools', 'code_search'];
    expect(host.tools.map((tool) => tool.name)).toEqual(names);
    await host.close();
    rmSync(workspace, { recursive: true, force: true });
  });
});
