export { createToolRuntime, type ToolRuntime, type ToolRuntimeOptions } from './tool-runtime.js';
export type { ToolSurface, ToolCallOptions, EditOptions, ShellPatchOptions, BudgetedText } from './tool-surface.js';
export { forwardToolSurface } from './forward-tool-surface.js';
export { checkTelemetryOptions, type TelemetryOptions } from './tool-telemetry.js';
export type { BuiltinImplementations } from './builtin-tools.js';
export {
  createBuiltinImplementations,
  createPatchEngine,
  type ToolEngineFactories,
  type ExecEngine,
  type PatchEngine,
  type CodeSearchEngine,
} from './tool-engines.js';
export { createCodeSearchEngine, type CodeSearchEngineOptions } from './code-search-engine.js';
export { readWorkspacePath, type WorkspacePathRead } from './read-workspace-path.js';
export type { FileOperation, PatchChunk, ChunkLine } from '@toolhost/patch';
