import { ErrorCode, SerialQueue, errorResult, type EnvironmentProcesses, type ToolContext, type ToolResult } from '@toolhost/core';
import { ExecSession } from './exec-session.js';
import type { Executor } from './executor.js';
import { createFlowControl } from './flow-control.js';
import { PipeCapture, TerminalCapture } from './output-capture.js';
import { SESSION_MARKER_VARIABLE } from './process-tree.js';
import { SessionSpool } from './session-spool.js';
import type { SessionTable } from './session-table.js';

/** What one command is started with: the shell's file and arguments that run it, and its folder. */
export interface SpawnCommand {
  cmd: string;
  tty: boolean;
  file: string;
  args: string[];
  cwd: string;
}

/** What the spawner of a set of exec tools shares. */
export interface SpawnParts {
  sessions: SessionTable<ExecSession>;
  /** Every process a command starts inherits `TOOLHOST_SESSION=<hostId>-<session id>`, so close() finds all of them. */
  hostId: string;
  baseEnv: Record<string, string>;
  terminalType: string | undefined;
  terminalSize: { rows: number; cols: number };
  pipeExecutor: Executor;
  ptyExecutor: Executor | undefined;
  processes: EnvironmentProcesses;
  onOutput?: (sessionId: number, chunk: string) => void;
}

/** A started command's session and the notes its answer shows (a pruned session), or why it could not start. */
export type Spawned = ToolResult | { session: ExecSession; notes: string[] };

/** Creates the spawner: prunes the table, starts the command's process and registers its session. */
export function createSpawner(parts: SpawnParts): (command: SpawnCommand, context: ToolContext) => Promise<Spawned> {
  const { sessions, processes } = parts;
  const { rows, cols } = parts.terminalSize;
  const spawnQueue = new SerialQueue();
  // Pruning, spawning and registering run one call at a time, so concurrent calls cannot overshoot the limit.
  return (command, context) =>
    spawnQueue.run(async () => {
      const notes = sessions.prune();
      const id = sessions.allocateId();
      const marker = `${parts.hostId}-${id}`;
      const env = {
        ...parts.baseEnv,
        TERM: parts.terminalType ?? (command.tty ? 'xterm-256color' : 'dumb'),
        [SESSION_MARKER_VARIABLE]: marker,
      };
      let child;
      try {
        const executor = command.tty ? (parts.ptyExecutor ?? processes.executor('pty')) : parts.pipeExecutor;
        child = await executor.spawn({ file: command.file, args: command.args, cwd: command.cwd, env, rows, cols });
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return errorResult(ErrorCode.SpawnFailed, `Could not start ${command.file}: ${message}`);
      }
      const flow = createFlowControl(child);
      const decode = Boolean(parts.onOutput);
      const session = new ExecSession({
        id,
        cmd: command.cmd,
        tty: command.tty,
        process: child,
        flow,
        capture: command.tty ? new TerminalCapture({ rows, cols, flow, decode }) : new PipeCapture(undefined, { decode }),
        spool: new SessionSpool(context.spool, `exec-${id}`),
        onOutput: parts.onOutput,
        marker,
        processes,
      });
      sessions.add(session);
      return { session, notes };
    });
}
