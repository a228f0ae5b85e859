export { applyPatchSchema, APPLY_PATCH_LARK_GRAMMAR, type ApplyPatchArgs } from './apply-patch-schema.js';
export { createApplyPatchTool } from './apply-patch-tool.js';
