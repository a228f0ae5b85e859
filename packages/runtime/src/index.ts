export {
  createToolRuntime,
  type ToolRuntime,
  type ToolRuntimeOptions,
  type BuiltinImplementations,
  type ToolCallOptions,
  type EditOptions,
  type BudgetedText,
} from './tool-runtime.js';
export { createBuiltinImplementations } from './builtin-implementations.js';
export { readWorkspacePath, type WorkspacePathRead } from './read-workspace-path.js';
export type { FileOperation, PatchChunk, ChunkLine } from '@toolhost/patch';
