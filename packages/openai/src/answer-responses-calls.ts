import type { ToolHost, ToolResult } from 'toolhost';
import { runApplyPatchOperation } from './apply-patch-operation.js';
import type {
  ResponsesApplyPatchCall,
  ResponsesCallOutput,
  ResponsesCustomToolCall,
  ResponsesFunctionCall,
  ResponsesShellCall,
} from './responses-types.js';
import { runShellCommands, type ShellCommandsOptions } from './shell-commands.js';
import { stripNulls } from './strict-json-schema.js';

/** A tool call item {@link answerResponsesCalls} answers. */
export type ResponsesToolCall = ResponsesFunctionCall | ResponsesCustomToolCall | ResponsesApplyPatchCall | ResponsesShellCall;

/** Options of {@link answerResponsesCalls}. */
export interface AnswerResponsesOptions {
  /** Called with each call's full result (the model sees only `output`); a shell call reports each command's results. */
  onResult?: (call: ResponsesToolCall, result: ToolResult) => void;
  /** How `shell_call` commands run (default timeout, token budget). */
  shell?: Omit<ShellCommandsOptions, 'onResult'>;
}

function hasCallId(item: unknown, type: string): boolean {
  const candidate = item as { type?: unknown; call_id?: unknown } | undefined;
  return candidate?.type === type && typeof candidate.call_id === 'string';
}

function isFunctionCall(item: unknown): item is ResponsesFunctionCall {
  return hasCallId(item, 'function_call') && typeof (item as ResponsesFunctionCall).name === 'string';
}

function isCustomToolCall(item: unknown): item is ResponsesCustomToolCall {
  return hasCallId(item, 'custom_tool_call') && typeof (item as ResponsesCustomToolCall).name === 'string';
}

type ToolCaller = { type: 'direct' } | { type: 'program'; caller_id: string };

/**
 * The call's `caller` to echo on its output, as the Agents SDK echoes it: only a well-formed direct or program caller,
 * otherwise none.
 */
function echoedCaller(call: unknown): { caller?: ToolCaller } {
  const caller = (call as { caller?: unknown }).caller as { type?: unknown; caller_id?: unknown } | null | undefined;
  if (caller?.type === 'direct') return { caller: { type: 'direct' } };
  if (caller?.type === 'program' && typeof caller.caller_id === 'string')
    return { caller: { type: 'program', caller_id: caller.caller_id } };
  return {};
}

function parseArguments(text: unknown, schema: unknown): unknown {
  if (typeof text !== 'string') return text;
  try {
    return stripNulls(JSON.parse(text), schema);
  } catch {
    // The host answers malformed JSON with an invalid_arguments result.
    return text;
  }
}

/**
 * Runs every tool call item of a response through the host, in order, and returns the items to send back:
 * `function_call` and `custom_tool_call` through the named tool; `apply_patch_call` (one V4A file operation)
 * through the patch engine, touching only the operation's path, `failed` with its fix-it text when nothing was
 * written; `shell_call` through exec_command, one output entry per command. Each output carries its call's `caller`
 * when the call had one. Other items are ignored.
 *
 * @example
 * ```ts
 * const response = await client.responses.create({ model: 'gpt-5', input, tools: toResponsesTools(host, { native: true }) });
 * const outputs = await answerResponsesCalls(response.output, host); // send these back with the next request
 * ```
 */
export async function answerResponsesCalls(
  items: readonly unknown[],
  host: Pick<ToolHost, 'tools' | 'call' | 'edit'>,
  options: AnswerResponsesOptions = {},
): Promise<ResponsesCallOutput[]> {
  const outputs: ResponsesCallOutput[] = [];
  for (const item of items) {
    if (isFunctionCall(item)) {
      const schema = host.tools.find((tool) => tool.name === item.name)?.inputSchema;
      const result = await host.call(item.name, parseArguments(item.arguments, schema), { callId: item.call_id });
      options.onResult?.(item, result);
      outputs.push({ type: 'function_call_output', call_id: item.call_id, output: result.output, ...echoedCaller(item) });
    } else if (isCustomToolCall(item)) {
      const result = await host.call(item.name, typeof item.input === 'string' ? item.input : '', { callId: item.call_id });
      options.onResult?.(item, result);
      outputs.push({ type: 'custom_tool_call_output', call_id: item.call_id, output: result.output, ...echoedCaller(item) });
    } else if (hasCallId(item, 'apply_patch_call')) {
      const call = item as ResponsesApplyPatchCall;
      const outcome = await runApplyPatchOperation(host, call.operation, { callId: call.call_id });
      options.onResult?.(call, outcome.result);
      outputs.push({
        type: 'apply_patch_call_output',
        call_id: call.call_id,
        status: outcome.status,
        output: outcome.output,
        ...echoedCaller(call),
      });
    } else if (hasCallId(item, 'shell_call')) {
      const call = item as ResponsesShellCall;
      const action = call.action ?? { commands: [], timeout_ms: null, max_output_length: null };
      const output = await runShellCommands(host, action, {
        ...options.shell,
        callId: call.call_id,
        onResult: (result) => options.onResult?.(call, result),
      });
      outputs.push({
        type: 'shell_call_output',
        call_id: call.call_id,
        output,
        max_output_length: action.max_output_length ?? null,
        ...echoedCaller(call),
      });
    }
  }
  return outputs;
}
