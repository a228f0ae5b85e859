import type { ToolResult } from '@toolhost/core';
import { answerToolUses, ANTHROPIC_TEXT_EDITOR_TOOL, type AnthropicToolHost } from '@toolhost/anthropic';
import { answerResponsesCalls, createAgentsEditor, type AgentsEditorResult, type ApplyPatchOperation } from '@toolhost/openai';
import type { ToolHost } from 'toolhost';
import type { HostileOperation, InvokeOperation } from './hostile-corpus.js';

/** The provider-native edit paths the reliability suite drives besides the tools themselves. */
export const NATIVE_EDIT_SURFACES = ['openai_apply_patch_call', 'agents_editor', 'anthropic_text_editor'] as const;
/** One of {@link NATIVE_EDIT_SURFACES}. */
export type NativeEditSurface = (typeof NATIVE_EDIT_SURFACES)[number];

/** A call on one native surface: an `apply_patch_call` operation, or an Anthropic text-editor input. */
export type NativeEdit =
  | { surface: 'openai_apply_patch_call' | 'agents_editor'; operation: ApplyPatchOperation }
  | { surface: 'anthropic_text_editor'; input: Record<string, unknown> };

/** The host surface every native path needs. */
export type NativeHost = Pick<ToolHost, 'tools' | 'call' | 'edit' | 'readPath' | 'budget'> & AnthropicToolHost;

const ERROR_LINE = /^Error \[([a-z_]+)\]: ([^\n]*)/;

/** Rebuilds a result from what the Agents SDK editor returns: its status, and the error code its failed text names. */
function fromEditorResult(answer: AgentsEditorResult): ToolResult {
  if (answer.status !== 'completed' && answer.status !== 'failed') throw new Error(`editor status ${JSON.stringify(answer.status)}`);
  if (typeof answer.output !== 'string') throw new Error('editor output is not a string');
  if (answer.status === 'completed') return { ok: true, output: answer.output };
  const match = ERROR_LINE.exec(answer.output);
  if (!match) throw new Error(`a failed edit's output names no error code: ${JSON.stringify(answer.output.slice(0, 200))}`);
  return { ok: false, output: answer.output, error: { code: match[1] as never, message: match[2]! } };
}

/** Runs one native edit and returns the host's full result, checking that what the provider sees agrees with it. */
export async function runNativeEdit(host: NativeHost, edit: NativeEdit): Promise<ToolResult> {
  if (edit.surface === 'agents_editor') {
    const editor = createAgentsEditor(host);
    const { operation } = edit;
    if (operation.type === 'create_file') return fromEditorResult(await editor.createFile(operation));
    if (operation.type === 'delete_file') return fromEditorResult(await editor.deleteFile(operation));
    const moveTo = operation.move_to ?? operation.moveTo;
    return fromEditorResult(
      await editor.updateFile({ type: 'update_file', path: operation.path, diff: operation.diff, ...(moveTo ? { moveTo } : {}) }),
    );
  }
  let captured: ToolResult | undefined;
  const onResult = (_call: unknown, result: ToolResult) => {
    captured = result;
  };
  if (edit.surface === 'openai_apply_patch_call') {
    const outputs = await answerResponsesCalls(
      [{ type: 'apply_patch_call', id: 'apc_1', call_id: 'call_1', status: 'completed', operation: edit.operation }],
      host,
      { onResult },
    );
    const output = outputs[0] as { type?: string; call_id?: string; status?: string; output?: string } | undefined;
    if (!captured || !output) throw new Error('the apply_patch_call got no answer');
    if (outputs.length !== 1 || output.type !== 'apply_patch_call_output' || output.call_id !== 'call_1')
      throw new Error(`unexpected answer ${JSON.stringify(outputs).slice(0, 200)}`);
    if (output.status !== (captured.ok ? 'completed' : 'failed')) throw new Error(`status ${output.status} for ok=${captured.ok}`);
    if (output.output !== captured.output) throw new Error('the answer text differs from the result text');
    return captured;
  }
  if (edit.surface !== 'anthropic_text_editor') throw new Error(`unknown surface ${String(edit.surface)}`);
  const blocks = await answerToolUses([{ type: 'tool_use', id: 'toolu_1', name: ANTHROPIC_TEXT_EDITOR_TOOL, input: edit.input }], host, {
    onResult,
  });
  const block = blocks[0];
  if (!captured || !block) throw new Error('the text editor call got no answer');
  if (blocks.length !== 1 || block.tool_use_id !== 'toolu_1') throw new Error(`unexpected answer ${JSON.stringify(blocks).slice(0, 200)}`);
  if (Boolean(block.is_error) === captured.ok) throw new Error(`is_error ${String(block.is_error)} for ok=${captured.ok}`);
  if (block.content !== captured.output) throw new Error('the tool_result text differs from the result text');
  return captured;
}

/** The operations of the hostile-path corpus each surface has. */
const SUPPORTED: Record<NativeEditSurface, readonly HostileOperation[]> = {
  openai_apply_patch_call: ['add', 'update', 'delete', 'move_source', 'move_destination'],
  agents_editor: ['add', 'update', 'delete', 'move_source', 'move_destination'],
  // `view` stands in for the read-only code_search slot: an inside folder is listed, anything else refused.
  anthropic_text_editor: ['add', 'update', 'code_search'],
};

/** The native edit that does what the corpus's tool call for `operation` does. */
export function hostileEdit(surface: NativeEditSurface, operation: HostileOperation, path: string): NativeEdit {
  if (surface === 'anthropic_text_editor') {
    switch (operation) {
      case 'add':
        return { surface, input: { command: 'create', path, file_text: 'created by reliability\n' } };
      case 'update':
        return { surface, input: { command: 'str_replace', path, old_str: 'hello', new_str: 'changed' } };
      case 'code_search':
        return { surface, input: { command: 'view', path } };
      default:
        throw new Error(`the text editor has no ${operation}`);
    }
  }
  switch (operation) {
    case 'add':
      // A last bare "+" line gives the file its final line ending, as the Agents SDK reads a create diff.
      return { surface, operation: { type: 'create_file', path, diff: '+created by reliability\n+' } };
    case 'update':
      return { surface, operation: { type: 'update_file', path, diff: '@@\n-hello\n+changed\n' } };
    case 'delete':
      return { surface, operation: { type: 'delete_file', path } };
    case 'move_source':
      return { surface, operation: { type: 'update_file', path, move_to: 'moved-by-reliability.txt', diff: '@@\n-hello\n+moved\n' } };
    case 'move_destination':
      return { surface, operation: { type: 'update_file', path: 'inside.txt', move_to: path, diff: '@@\n-hello\n+moved\n' } };
    default:
      throw new Error(`${surface} has no ${operation}`);
  }
}

/** A target for `runHostileCase` that runs the corpus through one native surface. */
export function nativeHostileTarget(
  surface: NativeEditSurface,
  host: NativeHost,
): { invoke: InvokeOperation; supported: readonly HostileOperation[] } {
  return { supported: SUPPORTED[surface], invoke: (operation, path) => runNativeEdit(host, hostileEdit(surface, operation, path)) };
}
