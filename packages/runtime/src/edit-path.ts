import { ErrorCode, errorResult, type ToolResult, type ToolVocabulary } from '@toolhost/core';
import type { FileOperation } from '@toolhost/patch';
import type { VerificationGate } from '@toolhost/profiles';
import type { PatchEngine } from './tool-engines.js';
import type { CallContext } from './call-context.js';

/** Applies file operations under the gate, within a budget, with texts in `vocabulary`'s tool names. */
export type ApplyOperations = (
  operations: readonly FileOperation[],
  budget: number,
  signal: AbortSignal,
  vocabulary: ToolVocabulary,
) => Promise<ToolResult>;

/** What the edit path works with. */
export interface EditPathParts {
  /** The apply_patch engine, when the profile has apply_patch. */
  patchTool: PatchEngine | undefined;
  gate: VerificationGate;
  context: CallContext;
  isClosed: () => boolean;
}

/**
 * The one path of every edit that does not come as apply_patch text (native editors, the heredoc sent to
 * exec_command): the patch engine's file operations, counted by the anti-blind-editing gate as apply_patch calls.
 */
export function createEditPath(parts: EditPathParts): ApplyOperations {
  const { patchTool, gate, context, isClosed } = parts;
  return async (operations, budget, signal, vocabulary) => {
    if (!patchTool?.applyOperations)
      return errorResult(ErrorCode.UnknownTool, `This host has no ${vocabulary.edit} tool; edit files with ${vocabulary.shell}.`);
    const blocked = gate.check('apply_patch', vocabulary.shell);
    if (blocked) return blocked;
    let result: ToolResult;
    try {
      result = signal.aborted
        ? errorResult(ErrorCode.ToolFailed, 'The edit was cancelled before it was applied; no file was changed.')
        : await patchTool.applyOperations(operations, context(budget, signal, vocabulary));
    } catch (error) {
      if (isClosed()) result = errorResult(ErrorCode.ToolFailed, `${vocabulary.edit} was interrupted because the host closed`);
      else
        result = errorResult(
          ErrorCode.InternalError,
          `${vocabulary.edit} failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`,
        );
    }
    gate.record('apply_patch', {}, result);
    return result;
  };
}
