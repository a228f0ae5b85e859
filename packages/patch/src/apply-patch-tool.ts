import type { ToolImplementation } from '@toolhost/core';
import { APPLY_PATCH_LARK_GRAMMAR, applyPatchSchema } from './apply-patch-schema.js';
import { applyPatch, type ApplyPatchOptions } from './apply-patch.js';

/** Options of {@link createApplyPatchTool}. */
export type ApplyPatchToolOptions = ApplyPatchOptions;

/** Creates the apply_patch tool: the patch engine over the call's workspace. */
export function createApplyPatchTool(options: ApplyPatchToolOptions = {}): ToolImplementation {
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
    execute: async (args, context) => applyPatch(context.workspace, String(args.input), options),
  };
}
