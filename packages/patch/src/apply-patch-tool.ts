import { ErrorCode, errorResult, type ToolImplementation } from '@toolhost/core';
import { APPLY_PATCH_LARK_GRAMMAR, applyPatchSchema } from './apply-patch-schema.js';

/** Creates the apply_patch tool. */
export function createApplyPatchTool(): ToolImplementation {
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
    execute: async () => errorResult(ErrorCode.ToolFailed, 'apply_patch is not implemented in this build'),
  };
}
