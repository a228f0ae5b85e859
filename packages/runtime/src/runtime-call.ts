import { DEFAULT_MAX_OUTPUT_TOKENS, ErrorCode, ToolHostError, errorResult, type ToolResult } from '@toolhost/core';
import type { ToolResultFor } from './builtin-tool-specs.js';
import type { RuntimeParts } from './runtime-parts.js';
import type { ToolRuntimeOptions } from './tool-runtime.js';
import type { ToolCallOptions, ToolSurface } from './tool-surface.js';

/** The command line of an exec_command call, for its span. */
const commandOf = (name: string, args: unknown): string | undefined =>
  name === 'exec_command' && args && typeof args === 'object' && typeof (args as { cmd?: unknown }).cmd === 'string'
    ? (args as { cmd: string }).cmd
    : undefined;

/** Creates a runtime's `call`: dispatch, fitting, `onCall` and the span, an unexpected exception made an error result. */
export function createRuntimeCall(parts: RuntimeParts, options: ToolRuntimeOptions): ToolSurface['call'] {
  const { lifecycle, traced, dispatch, fit, vocabulary } = parts;
  return async <Name extends string>(name: Name, args?: unknown, callOptions?: ToolCallOptions): Promise<ToolResultFor<Name>> => {
    lifecycle.assertOpen();
    const signal = lifecycle.signal(callOptions?.signal);
    // The tool's own engine made the result, so its data has the shape the tool's spec gives it.
    return (await traced({ tool: String(name), callId: callOptions?.callId, command: commandOf(name, args) }, async () => {
      let result: ToolResult;
      let unfitted: ToolResult | undefined;
      try {
        const outcome = await dispatch(name, args, signal, callOptions?.vocabulary ?? vocabulary);
        unfitted = outcome.result;
        result = await fit(name, outcome.result, outcome.budget);
      } catch (error) {
        if (ToolHostError.is(error)) throw error;
        const message = error instanceof Error ? error.message : String(error);
        result = await fit(
          name,
          errorResult(ErrorCode.InternalError, `${String(name).slice(0, 100)} failed unexpectedly: ${message}`),
          DEFAULT_MAX_OUTPUT_TOKENS,
        );
      }
      options.onCall?.(name, args, result);
      const original = unfitted?.output;
      return {
        result,
        originalTokens: original !== undefined && original !== result.output ? () => options.tokenizer.count(original) : undefined,
      };
    })) as ToolResultFor<Name>;
  };
}
