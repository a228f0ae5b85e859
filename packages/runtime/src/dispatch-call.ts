import {
  DEFAULT_MAX_OUTPUT_TOKENS,
  ErrorCode,
  errorResult,
  type ToolImplementation,
  type ToolResult,
  type ToolVocabulary,
} from '@toolhost/core';
import { isLegacyToolName, legacyToolMessage, type VerificationGate } from '@toolhost/profiles';
import type { CallContext } from './call-context.js';
import type { CatalogVisibility } from './catalog-visibility.js';
import { decodeArguments } from './decode-arguments.js';
import type { ShellSentPatch } from './shell-sent-patch.js';

/** A dispatched call: its result and the output budget it must fit (the default when the call never set one). */
export interface DispatchedCall {
  result: ToolResult;
  budget: number;
}

/** Runs one call from its name and raw arguments to its unfitted result. */
export type DispatchCall = (name: string, rawArgs: unknown, signal: AbortSignal, vocabulary: ToolVocabulary) => Promise<DispatchedCall>;

/** What dispatch works with. */
export interface DispatchParts {
  builtins: ReadonlyMap<string, ToolImplementation>;
  visibility: CatalogVisibility;
  /** The names of every tool visible now, for the answer to an unknown tool. */
  visibleNames: () => string[];
  gate: VerificationGate;
  context: CallContext;
  /** Answers a patch sent to exec_command as a command (applied, or refused when bare) without running it. */
  shellSentPatch: ShellSentPatch;
  isClosed: () => boolean;
}

/** Creates dispatch: tool lookup, argument decoding, a patch sent as a command, the gate, and the tool itself. */
export function createDispatch(parts: DispatchParts): DispatchCall {
  const { builtins, visibility, gate, context, shellSentPatch, isClosed } = parts;

  const run = async (
    name: string,
    implementation: ToolImplementation,
    values: Record<string, unknown>,
    budget: number,
    signal: AbortSignal,
    vocabulary: ToolVocabulary,
  ): Promise<ToolResult> => {
    if (name === 'exec_command' && typeof values.cmd === 'string') {
      const answered = await shellSentPatch(values.cmd, values.workdir, budget, signal, vocabulary);
      if (answered) return answered;
    }
    const blocked = gate.check(name, vocabulary.shell);
    if (blocked) return blocked;
    let result: ToolResult;
    try {
      result = await implementation.execute(values, context(budget, signal, vocabulary));
    } catch (error) {
      if (isClosed()) return errorResult(ErrorCode.ToolFailed, `${name} was interrupted because the host closed`);
      const message = error instanceof Error ? error.message : String(error);
      result = errorResult(ErrorCode.InternalError, `${name} failed unexpectedly: ${message}`);
    }
    gate.record(name, values, result);
    return result;
  };

  return async (name, rawArgs, signal, vocabulary) => {
    const answer = (result: ToolResult, budget = DEFAULT_MAX_OUTPUT_TOKENS): DispatchedCall => ({ result, budget });
    if (typeof name !== 'string') return answer(errorResult(ErrorCode.UnknownTool, 'tool name must be a string'));
    if (isLegacyToolName(name)) return answer(errorResult(ErrorCode.LegacyTool, legacyToolMessage(name)));
    const implementation = builtins.get(name) ?? visibility.callable(name)?.implementation;
    if (!implementation) return answer(visibility.notCallable(name, parts.visibleNames));
    const decoded = decodeArguments(name, implementation, rawArgs);
    if (!decoded.ok) return answer(decoded.result, decoded.budget);
    return answer(await run(name, implementation, decoded.values, decoded.budget, signal, vocabulary), decoded.budget);
  };
}
