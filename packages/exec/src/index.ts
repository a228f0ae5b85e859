export {
  execCommandSchema,
  writeStdinSchema,
  execDataSchema,
  YIELD_TIME_BOUNDS,
  EXEC_DEFAULT_YIELD_MS,
  STDIN_DEFAULT_YIELD_MS,
  normalizeWriteStdinArgs,
  type ExecCommandArgs,
  type WriteStdinArgs,
  type ExecData,
} from './exec-schema.js';
export { defaultExecGateway, type ExecGateway, type ExecRequest, type ExecDecision } from './exec-gateway.js';
export { createExecTools, clampYieldTime, DEFAULT_MAX_SESSIONS, type ExecTools, type ExecToolsOptions } from './exec-tools.js';
export { formatExecOutput, newChunkId, type ExecOutputParts } from './exec-output.js';
export type { Executor, ExecProcess, ProcessExit, SpawnRequest } from './executor.js';
export { createPipeExecutor, type PipeExecutorOptions } from './pipe-executor.js';
export { createPtyExecutor } from './pty-executor.js';
export { killProcessTree, SESSION_MARKER_VARIABLE, type KillOptions } from './process-tree.js';
export { buildExecResponse, windowTokenCount, type ExecResponseInput } from './exec-response.js';
export type { CapturedText } from './output-window.js';
export { SessionTable, describeCommand, type TableSession, type SessionTableOptions } from './session-table.js';
export {
  createLocalEnvironment,
  createLocalProcesses,
  type LocalEnvironmentOptions,
  type LocalProcessesOptions,
} from './local-environment.js';
