import type { ToolHost } from 'toolhost';
import { runApplyPatchOperation } from './apply-patch-operation.js';

/** What an Agents SDK editor operation returns: `failed` with the fix-it text when nothing was written. */
export interface AgentsEditorResult {
  status: 'completed' | 'failed';
  output: string;
}

/**
 * The OpenAI Agents SDK's `Editor` interface (from `@openai/agents-core`), as {@link createAgentsEditor} implements it;
 * written out here so that this package's types do not pull in the Agents SDK's.
 */
export interface AgentsEditor {
  createFile(operation: { type: 'create_file'; path: string; diff: string }): Promise<AgentsEditorResult>;
  updateFile(operation: { type: 'update_file'; path: string; diff: string; moveTo?: string }): Promise<AgentsEditorResult>;
  deleteFile(operation: { type: 'delete_file'; path: string }): Promise<AgentsEditorResult>;
}

/**
 * An OpenAI Agents SDK `Editor` over a tool host: each operation runs through the host's patch engine, touching only its path
 * (atomic, boundary-checked, counted by the anti-blind-editing gate); a refused one is `failed` with its fix-it text.
 *
 * @example
 * ```ts
 * import { Agent, applyPatchTool, shellTool } from '@openai/agents';
 * import { createAgentsEditor, createAgentsShell } from '@toolhost/openai';
 *
 * const agent = new Agent({
 *   name: 'fixer',
 *   tools: [applyPatchTool({ editor: createAgentsEditor(host) }), shellTool({ shell: createAgentsShell(host) })],
 * });
 * ```
 */
export function createAgentsEditor(host: Pick<ToolHost, 'edit'>): AgentsEditor {
  const run = async (operation: unknown): Promise<AgentsEditorResult> => {
    const { status, output } = await runApplyPatchOperation(host, operation);
    return { status, output };
  };
  return { createFile: run, updateFile: run, deleteFile: run };
}
