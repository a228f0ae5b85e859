import type { ToolHost, ToolResult } from 'toolhost';
import type { ResponsesCallOutput, ResponsesCustomToolCall, ResponsesFunctionCall } from './responses-types.js';
import { stripNulls } from './strict-json-schema.js';

/** Options of {@link answerResponsesCalls}. */
export interface AnswerResponsesOptions {
  /** Called with each call's full result (the model sees only `output`). */
  onResult?: (call: ResponsesFunctionCall | ResponsesCustomToolCall, result: ToolResult) => void;
}

function isFunctionCall(item: unknown): item is ResponsesFunctionCall {
  const candidate = item as ResponsesFunctionCall;
  return candidate?.type === 'function_call' && typeof candidate.call_id === 'string' && typeof candidate.name === 'string';
}

function isCustomToolCall(item: unknown): item is ResponsesCustomToolCall {
  const candidate = item as ResponsesCustomToolCall;
  return candidate?.type === 'custom_tool_call' && typeof candidate.call_id === 'string' && typeof candidate.name === 'string';
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
 * Runs every `function_call` and `custom_tool_call` item of a response through the host, in order, and returns the
 * `function_call_output` / `custom_tool_call_output` items to send back; other items are ignored.
 */
export async function answerResponsesCalls(
  items: readonly unknown[],
  host: Pick<ToolHost, 'tools' | 'call'>,
  options: AnswerResponsesOptions = {},
): Promise<ResponsesCallOutput[]> {
  const outputs: ResponsesCallOutput[] = [];
  for (const item of items) {
    if (isFunctionCall(item)) {
      const schema = host.tools.find((tool) => tool.name === item.name)?.inputSchema;
      const result = await host.call(item.name, parseArguments(item.arguments, schema));
      options.onResult?.(item, result);
      outputs.push({ type: 'function_call_output', call_id: item.call_id, output: result.output });
    } else if (isCustomToolCall(item)) {
      const result = await host.call(item.name, typeof item.input === 'string' ? item.input : '');
      options.onResult?.(item, result);
      outputs.push({ type: 'custom_tool_call_output', call_id: item.call_id, output: result.output });
    }
  }
  return outputs;
}
