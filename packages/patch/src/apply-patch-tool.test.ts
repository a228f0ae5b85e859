import { describe, expect, it } from 'vitest';
import {
  approximateTokenizer,
  createMemorySpool,
  createMemoryWorkspace,
  validateArguments,
  type ToolContext,
  type Workspace,
} from '@toolhost/core';
import { createApplyPatchTool } from './apply-patch-tool.js';
import { PathLocks } from './path-locks.js';

const text = '*** Begin Patch\n*** Update File: a.txt\n@@\n-x\n+y\n*** End Patch';

function context(workspace: Workspace): ToolContext {
  return {
    workspace,
    tokenizer: approximateTokenizer,
    spool: createMemorySpool(),
    maxOutputTokens: 10_000,
    shell: 'unix_like',
    signal: new AbortController().signal,
  };
}

describe('createApplyPatchTool', () => {
  const tool = createApplyPatchTool({ locks: new PathLocks() });

  it('maps a freeform raw string to {input} and the patch alias to input', () => {
    expect(tool.fromFreeform!(text)).toEqual({ input: text });
    expect(tool.normalize!({ patch: text, max_output_tokens: 5 })).toEqual({ input: text, max_output_tokens: 5 });
    expect(tool.normalize!({ input: text })).toEqual({ input: text });
    expect(tool.freeform?.syntax).toBe('lark');
  });

  it('validates against the strict schema and runs the engine over the call’s workspace', async () => {
    const workspace = createMemoryWorkspace({ 'a.txt': 'x\n' });
    const valid = validateArguments('apply_patch', tool.schema, tool.normalize!(tool.fromFreeform!(text)));
    expect(valid.ok).toBe(true);
    const result = await tool.execute(valid.ok ? (valid.value as Record<string, unknown>) : {}, context(workspace));
    expect(result).toMatchObject({ ok: true, output: 'Success. Updated the following files:\nM a.txt\n' });
    expect(workspace.snapshot()).toEqual({ 'a.txt': 'y\n' });
  });
});
