export {
  execCommandSchema,
  writeStdinSchema,
  YIELD_TIME_BOUNDS,
  EXEC_DEFAULT_YIELD_MS,
  STDIN_DEFAULT_YIELD_MS,
  type ExecCommandArgs,
  type WriteStdinArgs,
} from './exec-schema.js';
export { defaultExecGateway, type ExecGateway, type ExecRequest, type ExecDecision } from './exec-gateway.js';
export { createExecTools, type ExecTools, type ExecToolsOptions } from './exec-tools.js';
export { formatExecOutput, newChunkId, type ExecOutputParts } from './exec-output.js';
