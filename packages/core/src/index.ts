/**
 * The shared core of every toolhost package: types, error codes, JSON Schema conversion, the `max_output_tokens`
 * preflight, output budgeting, spooling, in-memory workspaces and the helpers environments are built from. What needs
 * Node's file system (the disk workspace, the file spool) is in `@toolhost/core/node`.
 *
 * @module @toolhost/core
 */
export { ErrorCode, ERROR_CODES } from './error-code.js';
export { ToolHostError, type ToolHostErrorCode } from './tool-host-error.js';
export {
  okResult,
  errorResult,
  type JsonSchema,
  type FreeformFormat,
  type ToolDefinition,
  type ToolErrorInfo,
  type ToolResult,
  type ToolSuccess,
  type ToolFailure,
  type ToolData,
  type ToolRole,
  type ToolAnnotations,
} from './tool-result.js';
export { withCommandChunk, commandChunkOf, type CommandChunk } from './command-chunk.js';
export { toJsonSchema, toDataJsonSchema, boundIntegers } from './json-schema.js';
export { gptTokenizer, approximateTokenizer, type Tokenizer } from './tokenizer.js';
export {
  budgetOutput,
  budgetHeadTail,
  estimateTokens,
  truncationMarker,
  EXACT_COUNT_LIMIT,
  type BudgetedOutput,
  type BudgetOptions,
  type HeadTailSource,
  type HeadTailPreview,
} from './budget-output.js';
export {
  DEFAULT_MAX_OUTPUT_TOKENS,
  MAX_OUTPUT_TOKENS_LIMIT,
  MAX_OUTPUT_TOKENS_FLOOR,
  MAX_OUTPUT_TOKENS_MESSAGE,
  maxOutputTokensSchema,
  budgetDataFields,
  preflightMaxOutputTokens,
  type MaxOutputTokensCheck,
} from './max-output-tokens.js';
export { validateArguments, type ArgumentsCheck } from './validate-arguments.js';
export type {
  CommitJournalStore,
  Workspace,
  WorkspaceStat,
  WorkspaceDirEntry,
  WorkspaceEntryKind,
  WorkspaceRealPath,
  WorkspaceDurability,
} from './workspace.js';
export {
  controlCharacterProblem,
  inspectWorkspacePath,
  normalizeWorkspacePath,
  resolveWorkspacePath,
  type WorkspacePathCheck,
  type WorkspacePathInspection,
} from './workspace-path.js';
export { fileBytesLength, isPieces, joinFileBytes, type FileBytes } from './file-bytes.js';
export { createMemoryWorkspace, type MemoryWorkspace, type MemoryFileInput } from './memory-workspace.js';
export { createMemorySpool, type Spool, type SpoolWriter, type MemorySpool } from './spool.js';
export type { ShellKind, ToolContext, ToolImplementation } from './tool-implementation.js';
export { TOOLHOST_VOCABULARY, OPENAI_NATIVE_VOCABULARY, ANTHROPIC_NATIVE_VOCABULARY, type ToolVocabulary } from './tool-vocabulary.js';
export type {
  Environment,
  EnvironmentProcesses,
  ExecProcess,
  Executor,
  MarkerMatch,
  ProcessExit,
  ShellCommand,
  SpawnRequest,
} from './environment.js';
export { ExitSentinelScanner, newSentinelNonce, SENTINEL_PRINTF, type SentinelScan } from './exit-sentinel.js';
export { ProcessListeners } from './process-listeners.js';
export { SerialQueue } from './serial-queue.js';
export { ripgrepFileListArguments, parseRipgrepFileList, type FileContentQuery } from './ripgrep-arguments.js';
export {
  applyShellEnvironmentPolicy,
  commandEnvironment,
  checkShellEnvironmentPolicy,
  CORE_ENVIRONMENT_VARIABLES,
  DEFAULT_EXCLUDED_VARIABLES,
  COMMAND_ENVIRONMENT_DEFAULTS,
  type ShellEnvironmentPolicy,
  type ShellEnvironmentInherit,
} from './shell-environment.js';
