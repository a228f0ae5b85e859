export { createToolRuntime, type ToolRuntime, type ToolRuntimeOptions } from './tool-runtime.js';
export type { ToolSurface, ToolCallOptions, EditOptions, ShellPatchOptions, BudgetedText } from './tool-surface.js';
export { forwardToolSurface } from './forward-tool-surface.js';
export {
  runCommand,
  startCommand,
  pollCommand,
  killCommand,
  commandStep,
  DEFAULT_RUN_TIMEOUT_MS,
  type CommandHost,
  type CommandCallOptions,
  type StartCommandOptions,
  type PollCommandOptions,
  type CommandStep,
  type CommandRunOptions,
  type CommandRun,
} from './command-runs.js';
export { toolListChange, type ToolListChange } from './tool-list-change.js';
export { checkTelemetryOptions, type TelemetryOptions } from './tool-telemetry.js';
export {
  BUILTIN_TOOL_SPECS,
  PROFILE_TOOLS,
  type AnyBuiltinToolSpec,
  type BuiltinToolName,
  type BuiltinToolSpecOf,
  type BuiltinToolInputs,
  type BuiltinToolData,
  type ToolResultOf,
  type ToolResultFor,
} from './builtin-tool-specs.js';
export { defineBuiltinTool, type BuiltinToolSpec, type BuiltinEngines } from './builtin-tool-spec.js';
export {
  createBuiltinImplementations,
  createPatchEngine,
  type BuiltinImplementations,
  type ToolEngineFactories,
  type ExecEngine,
  type PatchEngine,
  type CodeSearchEngine,
} from './tool-engines.js';
export { createCodeSearchEngine, type CodeSearchEngineOptions } from './code-search-engine.js';
export { readWorkspacePath, type WorkspacePathRead } from './read-workspace-path.js';
export type { FileOperation, PatchChunk, ChunkLine } from '@toolhost/patch';
