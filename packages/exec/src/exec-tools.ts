import { ErrorCode, errorResult, resolveWorkspacePath, type ToolContext, type ToolImplementation, type ToolResult } from '@toolhost/core';
import { execCommandSchema, normalizeWriteStdinArgs, writeStdinSchema, YIELD_TIME_BOUNDS, type ExecCommandArgs, type WriteStdinArgs } from './exec-schema.js';
import { defaultExecGateway, type ExecGateway } from './exec-gateway.js';
import { buildExecResponse } from './exec-response.js';
import { ExecSession } from './exec-session.js';
import { createFlowControl } from './flow-control.js';
import type { Executor } from './executor.js';
import { PipeCapture, TerminalCapture } from './output-capture.js';
import { createPipeExecutor } from './pipe-executor.js';
import { createPtyExecutor } from './pty-executor.js';
import { SessionSpool } from './session-spool.js';
import { shellCommand } from './shell-command.js';

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
  /** Extra environment variables for every command (applied over the defaults). */
  env?: Record<string, string>;
  /** Backends; tests and embedders may replace them. */
  executors?: { pipe?: Executor; pty?: Executor };
}

/** exec_command and write_stdin sharing one session table. */
export interface ExecTools {
  /** The exec_command tool. */
  execCommand: ToolImplementation;
  /** The write_stdin tool. */
  writeStdin: ToolImplementation;
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

/** Remembers at most `limit` ids with a value, forgetting the oldest. */
class BoundedMemory<T> {
  private readonly entries = new Map<number, T>();
  constructor(private readonly limit: number) {}
  set(id: number, value: T): void {
    this.entries.delete(id);
    this.entries.set(id, value);
    if (this.entries.size > this.limit) this.entries.delete(this.entries.keys().next().value!);
  }
  get(id: number): T | undefined {
    return this.entries.get(id);
  }
}

function describeCommand(cmd: string): string {
  const line = cmd.replace(/\s+/g, ' ').trim();
  return line.length > 60 ? `${line.slice(0, 57)}...` : line;
}

function childEnvironment(extra: Record<string, string> | undefined): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  Object.assign(env, { NO_COLOR: '1', PAGER: 'cat', GIT_PAGER: 'cat' });
  delete env.FORCE_COLOR;
  delete env.CLICOLOR_FORCE;
  return Object.assign(env, extra);
}

/** Creates exec_command and write_stdin. */
export function createExecTools(options: ExecToolsOptions = {}): ExecTools {
  const gateway = options.gateway ?? defaultExecGateway;
  const maxSessions = Math.max(1, Math.floor(options.maxSessions ?? DEFAULT_MAX_SESSIONS));
  const rows = options.terminalSize?.rows ?? 24;
  const cols = options.terminalSize?.cols ?? 80;
  const pipeExecutor = options.executors?.pipe ?? createPipeExecutor();
  let ptyExecutor = options.executors?.pty;
  const baseEnv = childEnvironment(options.env);
  const sessions = new Map<number, ExecSession>();
  /** Exit codes of sessions whose exit a response reported, for `session_exited`. */
  const exited = new BoundedMemory<number>(4096);
  const pruned = new BoundedMemory<string>(4096);
  /** Kills and releases still in flight, awaited by close(). */
  const background = new Set<Promise<unknown>>();
  let nextId = 1;
  let clock = 0;
  let closed = false;
  let closing: Promise<void> | undefined;

  const track = (promise: Promise<unknown>) => {
    const tracked = promise.catch(() => {});
    background.add(tracked);
    void tracked.finally(() => background.delete(tracked));
  };

  const touch = (session: ExecSession) => {
    session.lastUsed = ++clock;
  };

  /** Makes room for one more session; returns the notes that tell the model what was pruned. */
  const prune = (): string[] => {
    const notes: string[] = [];
    while (sessions.size >= maxSessions) {
      let victim: ExecSession | undefined;
      for (const session of sessions.values()) {
        const better =
          !victim ||
          (session.exit !== undefined && victim.exit === undefined) ||
          ((session.exit !== undefined) === (victim.exit !== undefined) && session.lastUsed < victim.lastUsed);
        if (better) victim = session;
      }
      if (!victim) break;
      sessions.delete(victim.id);
      const wasRunning = victim.exit === undefined;
      pruned.set(victim.id, victim.cmd);
      track(victim.kill());
      notes.push(
        `Note: session ${victim.id} (${describeCommand(victim.cmd)}) was pruned to stay within ${maxSessions} sessions; ` +
          (wasRunning ? 'it was the least recently used and its process tree was killed.' : 'it had exited; leftover background processes were killed.'),
      );
    }
    return notes;
  };

  /** Waits for exit or the yield time, then reads the new output and builds the response. */
  const respond = async (session: ExecSession, started: number, yieldMs: number, context: ToolContext, notes: string[]): Promise<ToolResult> => {
    await session.waitForExit(Math.max(0, yieldMs - (performance.now() - started)), context.signal);
    // Read the exit state before the output: once exited, the output is drained, so this read holds all of it.
    const exit = session.exit;
    const wallTimeMs = performance.now() - started;
    const captured = await session.read();
    const result = buildExecResponse({
      wallTimeMs,
      exitCode: exit?.exitCode,
      sessionId: session.id,
      notes,
      captured,
      tokenizer: context.tokenizer,
      maxOutputTokens: context.maxOutputTokens,
      spoolPath: () => session.spoolPath(),
    });
    if (exit) {
      const released = finish(session, exit.exitCode);
      // The response names the spool file: let it hold every byte before the caller can read it.
      if (result.data?.spool_path !== undefined) await released;
    } else session.announced = true;
    return result;
  };

  /** The exit was reported: free the buffers, keep the session only while background processes remain. */
  const finish = (session: ExecSession, exitCode: number): Promise<void> => {
    session.exitReported = true;
    if (session.announced) exited.set(session.id, exitCode);
    const released = session.release();
    track(released);
    if (!session.hasLingeringProcesses()) sessions.delete(session.id);
    return released;
  };

  const execCommand: ToolImplementation = {
    name: 'exec_command',
    schema: execCommandSchema,
    async execute(rawArgs, context) {
      const started = performance.now();
      const args = rawArgs as ExecCommandArgs;
      if (closed) return errorResult(ErrorCode.ToolFailed, 'exec_command is unavailable because the tool host is closing.');
      const { workspace } = context;
      if (!workspace.onDisk) return errorResult(ErrorCode.SpawnFailed, 'This workspace is not a folder on disk, so commands cannot run in it.');
      const commandBytes = Buffer.byteLength(args.cmd);
      if (commandBytes >= MAX_COMMAND_BYTES) {
        return errorResult(
          ErrorCode.InvalidArguments,
          `cmd is ${commandBytes} bytes, but the operating system accepts at most ${MAX_COMMAND_BYTES - 1} bytes in one argument. Write the script to a file with apply_patch and run that file instead.`,
        );
      }
      let cwd = workspace.root;
      if (args.workdir !== undefined) {
        const shown = JSON.stringify(args.workdir.length > 200 ? `${args.workdir.slice(0, 200)}…` : args.workdir);
        try {
          const check = await resolveWorkspacePath(workspace, args.workdir);
          if (!check.ok) return errorResult(ErrorCode.OutsideWorkspace, `workdir: ${check.message}. Use a folder inside ${workspace.root}, or omit workdir to run in the workspace root.`);
          const stat = await workspace.stat(check.relative);
          if (!stat) return errorResult(ErrorCode.SpawnFailed, `workdir ${shown} does not exist; create it first or choose an existing folder.`);
          if (stat.kind !== 'directory') return errorResult(ErrorCode.SpawnFailed, `workdir ${shown} is not a folder.`);
          cwd = check.absolute;
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code ?? 'error';
          const reason = code === 'ENAMETOOLONG' ? 'a path component is longer than the file system allows' : `the file system refused it (${code})`;
          return errorResult(ErrorCode.SpawnFailed, `workdir ${shown} cannot be used: ${reason}. Choose an existing folder inside the workspace.`);
        }
      }
      const decision = await gateway.decide({
        cmd: args.cmd,
        workdir: cwd,
        tty: args.tty,
        sandbox_permissions: args.sandbox_permissions,
        justification: args.justification,
      });
      if (!decision.allow) return errorResult(ErrorCode.PermissionDenied, `The command was not run: ${decision.reason}`);
      const shell = shellCommand(context.shell, args.cmd, baseEnv);
      if (!shell.ok) return errorResult(ErrorCode.SpawnFailed, shell.message);
      if (closed) return errorResult(ErrorCode.ToolFailed, 'exec_command is unavailable because the tool host is closing.');
      const notes = prune();
      const id = nextId++;
      const env = { ...baseEnv, TERM: args.tty ? 'xterm-256color' : 'dumb', ...(options.env?.TERM ? { TERM: options.env.TERM } : {}) };
      let child;
      try {
        const executor = args.tty ? (ptyExecutor ??= createPtyExecutor()) : pipeExecutor;
        child = await executor.spawn({ file: shell.file, args: shell.args, cwd, env, rows, cols });
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return errorResult(ErrorCode.SpawnFailed, `Could not start ${shell.file}: ${message}`);
      }
      const flow = createFlowControl(child);
      const session = new ExecSession({
        id,
        cmd: args.cmd,
        tty: args.tty,
        process: child,
        flow,
        capture: args.tty ? new TerminalCapture({ rows, cols, flow, decode: Boolean(options.onOutput) }) : new PipeCapture(),
        spool: new SessionSpool(context.spool, `exec-${id}`),
        onOutput: options.onOutput,
      });
      sessions.set(id, session);
      touch(session);
      if (closed) track(session.kill());
      return session.serialize(() => respond(session, started, clampYieldTime(args.yield_time_ms), context, notes));
    },
  };

  const missingSession = (id: number): ToolResult => {
    const code = exited.get(id);
    if (code !== undefined) {
      return errorResult(ErrorCode.SessionExited, `Session ${id} has already exited with code ${code}; its output was returned. Start a new command with exec_command.`, { exit_code: code });
    }
    const cmd = pruned.get(id);
    if (cmd !== undefined) {
      return errorResult(ErrorCode.UnknownSession, `Session ${id} (${describeCommand(cmd)}) was pruned to stay within ${maxSessions} sessions and its process was killed; start it again with exec_command.`);
    }
    const running = [...sessions.values()].filter((session) => session.exit === undefined && session.announced).map((session) => session.id);
    const hint = running.length > 0 ? `Running sessions: ${running.join(', ')}.` : 'No session is running.';
    return errorResult(ErrorCode.UnknownSession, `No session with ID ${id}. ${hint} Use the session ID from a "Process running with session ID N" result, or start a command with exec_command.`);
  };

  const writeStdin: ToolImplementation = {
    name: 'write_stdin',
    schema: writeStdinSchema,
    normalize: normalizeWriteStdinArgs,
    async execute(rawArgs, context) {
      const started = performance.now();
      const args = rawArgs as WriteStdinArgs;
      const session = sessions.get(args.session_id);
      if (!session || session.exitReported) return missingSession(args.session_id);
      touch(session);
      return session.serialize(async () => {
        if (session.exitReported) return missingSession(args.session_id);
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
    sessionIds: () => [...sessions.keys()],
    close() {
      closing ??= (async () => {
        closed = true;
        const all = [...sessions.values()];
        sessions.clear();
        await Promise.allSettled(all.map((session) => session.kill()));
        while (background.size > 0) await Promise.allSettled([...background]);
      })();
      return closing;
    },
  };
}
