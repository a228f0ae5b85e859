import { ErrorCode, errorResult, type EnvironmentProcesses, type ShellEnvironmentPolicy, type ToolImplementation } from '@toolhost/core';
import {
  execCommandSchema,
  normalizeWriteStdinArgs,
  writeStdinSchema,
  YIELD_TIME_BOUNDS,
  type ExecCommandArgs,
  type WriteStdinArgs,
} from './exec-schema.js';
import { defaultExecGateway, type ExecGateway } from './exec-gateway.js';
import { createResponder } from './exec-respond.js';
import type { ExecSession } from './exec-session.js';
import { createSpawner } from './exec-spawn.js';
import type { Executor } from './executor.js';
import { createLocalProcesses } from './local-environment.js';
import { randomBytes } from 'node:crypto';
import { SessionTable } from './session-table.js';
import { commandFolder } from './command-folder.js';
import { commandVariables } from './command-variables.js';

/** Options of {@link createExecTools}. */
export interface ExecToolsOptions {
  /** Decides sandbox_permissions / justification requests (default: allow use_default, deny escalation). */
  gateway?: ExecGateway;
  /** Called with each chunk of output as it arrives (decoded UTF-8, escape sequences kept), for live UIs. */
  onOutput?: (sessionId: number, chunk: string) => void;
  /** Most sessions kept at once (default 64); past it the least recently used exited, then running, session is pruned. */
  maxSessions?: number;
  /** PTY size for `tty:true` (default 24 rows × 80 columns). */
  terminalSize?: { rows: number; cols: number };
  /** Which of the host's environment variables commands get, and what is added (default: all but credential-like names). */
  shellEnvironment?: ShellEnvironmentPolicy;
  /** Extra environment variables for every command, applied like `shellEnvironment.set` (which wins on a clash). */
  env?: Record<string, string>;
  /** Backends; tests and embedders may replace them (over `processes`). */
  executors?: { pipe?: Executor; pty?: Executor };
  /** Where commands run: an environment's process side (default: this machine). */
  processes?: EnvironmentProcesses;
}

/** exec_command and write_stdin sharing one session table. */
export interface ExecTools {
  /** The exec_command tool. */
  execCommand: ToolImplementation;
  /** The write_stdin tool. */
  writeStdin: ToolImplementation;
  /** Whether commands find `rg` (ripgrep) on their PATH, as far as the environment knows. */
  readonly commandsFindRipgrep: boolean;
  /** Ids of the sessions currently kept (running, or exited with processes still around). */
  sessionIds(): number[];
  /** Kills every process tree and releases every session; idempotent. */
  close(): Promise<void>;
}

/** The kernel's limit on one argument (MAX_ARG_STRLEN, terminating NUL included). */
const MAX_COMMAND_BYTES = 128 * 1024;

/** Default most sessions kept at once. */
export const DEFAULT_MAX_SESSIONS = 64;

/** Clamps a requested yield time into 250..30000 ms. */
export function clampYieldTime(ms: number): number {
  return Math.min(YIELD_TIME_BOUNDS.max, Math.max(YIELD_TIME_BOUNDS.min, ms));
}

/** Creates exec_command and write_stdin. */
export function createExecTools(options: ExecToolsOptions = {}): ExecTools {
  const gateway = options.gateway ?? defaultExecGateway;
  const maxSessions = Math.max(1, Math.floor(options.maxSessions ?? DEFAULT_MAX_SESSIONS));
  const processes = options.processes ?? createLocalProcesses();
  const { base: baseEnv, terminalType, lookup: lookupEnv } = commandVariables(processes, options.shellEnvironment, options.env);
  const hostId = randomBytes(6).toString('hex');
  /** Kills and releases still in flight, awaited by close(). */
  const background = new Set<Promise<unknown>>();
  let closed = false;
  let closing: Promise<void> | undefined;

  const track = (promise: Promise<unknown>) => {
    const tracked = promise.catch(() => {});
    background.add(tracked);
    void tracked.finally(() => background.delete(tracked));
  };

  const sessions = new SessionTable<ExecSession>({ maxSessions, onPrune: (victim) => track(victim.kill()) });

  const respond = createResponder({ sessions, track, isClosed: () => closed });
  const spawn = createSpawner({
    sessions,
    hostId,
    baseEnv,
    terminalType,
    terminalSize: { rows: options.terminalSize?.rows ?? 24, cols: options.terminalSize?.cols ?? 80 },
    pipeExecutor: options.executors?.pipe ?? processes.executor('pipe'),
    ptyExecutor: options.executors?.pty,
    processes,
    onOutput: options.onOutput,
  });

  const execCommand: ToolImplementation = {
    name: 'exec_command',
    schema: execCommandSchema,
    async execute(rawArgs, context) {
      const started = performance.now();
      const args = rawArgs as ExecCommandArgs;
      if (closed) return errorResult(ErrorCode.ToolFailed, 'exec_command is unavailable because the tool host is closing.');
      const { workspace } = context;
      if (!workspace.onDisk)
        return errorResult(ErrorCode.SpawnFailed, 'This workspace is not a folder on disk, so commands cannot run in it.');
      const commandBytes = Buffer.byteLength(args.cmd);
      if (commandBytes >= MAX_COMMAND_BYTES) {
        return errorResult(
          ErrorCode.InvalidArguments,
          `cmd is ${commandBytes} bytes, but the operating system accepts at most ${MAX_COMMAND_BYTES - 1} bytes in one argument. Write the script to a file with apply_patch and run that file instead.`,
        );
      }
      const cwd = await commandFolder(workspace, args.workdir);
      if (typeof cwd !== 'string') return cwd;
      const decision = await gateway.decide({
        cmd: args.cmd,
        workdir: cwd,
        tty: args.tty,
        sandbox_permissions: args.sandbox_permissions,
        justification: args.justification,
      });
      if (!decision.allow) return errorResult(ErrorCode.PermissionDenied, `The command was not run: ${decision.reason}`);
      const shell = processes.shell(context.shell, args.cmd, lookupEnv);
      if (!shell.ok) return errorResult(ErrorCode.SpawnFailed, shell.message);
      if (closed) return errorResult(ErrorCode.ToolFailed, 'exec_command is unavailable because the tool host is closing.');
      const spawned = await spawn({ cmd: args.cmd, tty: args.tty, file: shell.file, args: shell.args, cwd }, context);
      if ('ok' in spawned) return spawned;
      const { session, notes } = spawned;
      if (closed) track(session.kill());
      return session.serialize(() => respond(session, started, clampYieldTime(args.yield_time_ms), context, notes));
    },
  };

  const writeStdin: ToolImplementation = {
    name: 'write_stdin',
    schema: writeStdinSchema,
    normalize: normalizeWriteStdinArgs,
    async execute(rawArgs, context) {
      const started = performance.now();
      const args = rawArgs as WriteStdinArgs;
      const session = sessions.live(args.session_id);
      if (!session) return sessions.missing(args.session_id);
      sessions.touch(session);
      return session.serialize(async () => {
        if (session.exitReported) return sessions.missing(args.session_id);
        const notes: string[] = [];
        if (args.chars.length > 0) {
          if (session.exit) notes.push('Note: the input was not delivered because the process had already exited.');
          else session.write(args.chars);
        }
        return respond(session, started, clampYieldTime(args.yield_time_ms), context, notes);
      });
    },
  };

  return {
    execCommand,
    writeStdin,
    commandsFindRipgrep: processes.findsRipgrep?.(baseEnv) ?? false,
    sessionIds: () => sessions.ids(),
    close() {
      closing ??= (async () => {
        closed = true;
        await Promise.allSettled(sessions.clear().map((session) => session.kill()));
        while (background.size > 0) await Promise.allSettled([...background]);
        // Whatever any session started and that escaped its tree (setsid, double fork) carries this host's marker.
        await processes.killMarked({ prefix: `${hostId}-` });
      })();
      return closing;
    },
  };
}
