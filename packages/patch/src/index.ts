export {
  applyPatchSchema,
  applyPatchDataSchema,
  APPLY_PATCH_LARK_GRAMMAR,
  type ApplyPatchArgs,
  type ApplyPatchData,
} from './apply-patch-schema.js';
export { createApplyPatchTool, type ApplyPatchTool, type ApplyPatchToolOptions } from './apply-patch-tool.js';
export { applyPatch, applyFileOperations, type ApplyPatchOptions } from './apply-patch.js';
export { parsePatch, type ParsePatchResult } from './parse-patch.js';
export { parseCreateDiff, parseUpdateDiff, type DiffParseFailure } from './parse-operation-diff.js';
export type { FileOperation } from './file-operation.js';
export type { ChunkLine, PatchChunk, PatchOperation, ParsedPatch } from './patch-syntax.js';
export { PathLocks, sharedPathLocks } from './path-locks.js';
export {
  createDiffEntry,
  boundDiff,
  MAX_DIFF_LINES,
  type DiffEntry,
  type DiffOperation,
  type EditRegion,
  type DiffEntryInput,
} from './diff-entry.js';
export { normalizePunctuation, MATCH_PASSES } from './line-matcher.js';
export type { TextLine, LineEnding } from './text-document.js';
export { openWorkspaceForEdits } from './recover-edits.js';
