import type { ApplyPatchResult, Editor } from '@openai/agents-core';
import type { ToolHost } from 'toolhost';
import { runApplyPatchOperation } from './apply-patch-operation.js';

/**
 * An OpenAI Agents SDK `Editor` over a tool host: each operation runs through the host's apply_patch engine
 * (atomic, boundary-checked, counted by the anti-blind-editing gate); a refused one is `failed` with its fix-it text.
 */
export function createAgentsEditor(host: Pick<ToolHost, 'call'>): Editor {
  const run = async (operation: unknown): Promise<ApplyPatchResult> => {
    const { status, output } = await runApplyPatchOperation(host, operation);
    return { status, output };
  };
  return { createFile: run, updateFile: run, deleteFile: run };
}
