import { ErrorCode, errorResult, type ToolImplementation } from '@toolhost/core';
import { execCommandSchema, writeStdinSchema } from './exec-schema.js';
import type { ExecGateway } from './exec-gateway.js';

/** Options of {@link createExecTools}. */
export interface ExecToolsOptions {
  gateway?: ExecGateway;
  /** Called with each chunk of output as it arrives, for live UIs. */
  onOutput?: (sessionId: number, chunk: string) => void;
  /** Most sessions kept at once (default 64). */
  maxSessions?: number;
}

/** exec_command and write_stdin sharing one session table. */
export interface ExecTools {
  execCommand: ToolImplementation;
  writeStdin: ToolImplementation;
  close(): Promise<void>;
}

/** Creates exec_command and write_stdin. */
export function createExecTools(_options: ExecToolsOptions = {}): ExecTools {
  const unavailable = (name: string) => errorResult(ErrorCode.ToolFailed, `${name} is not implemented in this build`);
  return {
    execCommand: { name: 'exec_command', schema: execCommandSchema, execute: async () => unavailable('exec_command') },
    writeStdin: {
      name: 'write_stdin',
      schema: writeStdinSchema,
      normalize: (args) => (typeof args.session_id === 'string' && /^\d+$/.test(args.session_id) ? { ...args, session_id: Number(args.session_id) } : args),
      execute: async () => unavailable('write_stdin'),
    },
    async close() {},
  };
}
