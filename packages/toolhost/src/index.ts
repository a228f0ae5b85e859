export { createToolHost, type CodeSearchOptions, type ToolHost, type ToolHostOptions } from './create-tool-host.js';
export type { ExecCommandInput, WriteStdinInput, ApplyPatchInput, SearchToolsInput, CodeSearchInput } from './builtin-tool-inputs.js';
export {
  ErrorCode,
  ToolHostError,
  errorResult,
  okResult,
  TOOLHOST_VOCABULARY,
  OPENAI_NATIVE_VOCABULARY,
  ANTHROPIC_NATIVE_VOCABULARY,
  type ToolVocabulary,
  gptTokenizer,
  approximateTokenizer,
  type ToolHostErrorCode,
  type Tokenizer,
  type ToolDefinition,
  type ToolResult,
  type ToolSuccess,
  type ToolFailure,
  type ToolData,
  type ToolRole,
  type ToolAnnotations,
  type ToolErrorInfo,
  type JsonSchema,
  type Environment,
  type Workspace,
  type WorkspaceStat,
  type WorkspaceDirEntry,
  type WorkspaceEntryKind,
  type WorkspaceRealPath,
  resolveWorkspacePath,
  type WorkspacePathCheck,
  SerialQueue,
  type ShellEnvironmentPolicy,
  type ShellEnvironmentInherit,
} from '@toolhost/core';
export type { CatalogEmbedder, CatalogEntry, ToolCatalog } from '@toolhost/catalog';
export type { ExecGateway, ExecRequest, ExecDecision } from '@toolhost/exec';
export { createLocalEnvironment } from '@toolhost/exec';
export { TOOL_PROFILES, SHELL_PROFILE_SETTINGS } from '@toolhost/profiles';
export type { ToolProfile, ShellProfileSetting, ShellGuidance, VerificationGateOptions, ToolNames } from '@toolhost/profiles';
export type {
  BuiltinToolInputs,
  BuiltinToolName,
  BuiltinToolData,
  ToolResultOf,
  ToolResultFor,
  ToolCallOptions,
  EditOptions,
  ShellPatchOptions,
  TelemetryOptions,
  FileOperation,
  PatchChunk,
  ChunkLine,
  BudgetedText,
  WorkspacePathRead,
} from '@toolhost/runtime';
