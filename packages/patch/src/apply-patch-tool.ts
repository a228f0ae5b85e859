import type { ToolContext, ToolImplementation, ToolResult } from '@toolhost/core';
import { APPLY_PATCH_LARK_GRAMMAR, applyPatchSchema } from './apply-patch-schema.js';
import { applyFileOperations, applyPatch, type ApplyPatchOptions } from './apply-patch.js';
import type { FileOperation } from './file-operation.js';

/** Options of {@link createApplyPatchTool}. */
export type ApplyPatchToolOptions = Omit<ApplyPatchOptions, 'vocabulary'>;

/** The apply_patch tool, which also applies file operations given as data (native editors) with the same engine. */
export interface ApplyPatchTool extends ToolImplementation {
  applyOperations(operations: readonly FileOperation[], context: Pick<ToolContext, 'workspace' | 'vocabulary'>): Promise<ToolResult>;
}

/** Creates the apply_patch tool: the patch engine over the call's workspace. */
export function createApplyPatchTool(options: ApplyPatchToolOptions = {}): ApplyPatchTool {
  return {
    name: 'apply_patch',
    schema: applyPatchSchema,
    freeform: { syntax: 'lark', definition: APPLY_PATCH_LARK_GRAMMAR },
    fromFreeform: (text) => ({ input: text }),
    normalize: (args) => {
      if ('patch' in args && !('input' in args)) {
        const { patch, ...rest } = args;
        return { ...rest, input: patch };
      }
      return args;
    },
    execute: async (args, context) => applyPatch(context.workspace, String(args.input), { ...options, vocabulary: context.vocabulary }),
    applyOperations: async (operations, context) =>
      applyFileOperations(context.workspace, operations, { ...options, vocabulary: context.vocabulary }),
  };
}
