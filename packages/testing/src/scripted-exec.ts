import { ErrorCode, errorResult, resolveWorkspacePath, type ToolImplementation } from '@toolhost/core';
import {
  clampYieldTime,
  DEFAULT_MAX_SESSIONS,
  execCommandSchema,
  normalizeWriteStdinArgs,
  SessionTable,
  writeStdinSchema,
  type ExecCommandArgs,
  type WriteStdinArgs,
} from '@toolhost/exec';
import { matchesScript, type FakeCommand } from './fake-command.js';
import { createFakeExecResponder } from './fake-exec-response.js';
import { advanceFakeSession, type FakeSession } from './fake-session.js';
import { createScriptedAnswers } from './scripted-answers.js';

/** Marks a result whose command matched no script (the fake host throws on it when strict). */
export const UNSCRIPTED_COMMAND = 'unscripted_command';

/** Scripted exec_command and write_stdin sharing one session table. */
export interface ScriptedExecTools {
  execCommand: ToolImplementation;
  writeStdin: ToolImplementation;
  /** Commands run so far, in order. */
  readonly commandsRun: readonly string[];
}

/** Options of {@link createScriptedExecTools}. */
export interface ScriptedExecOptions {
  /** Most sessions kept at once (default 64, like the real host); past it the least recently used is pruned. */
  maxSessions?: number;
  /** The workspace's files as text, given to a command's `answer` function (default: none). */
  files?: () => Record<string, string>;
}

/** Creates exec_command / write_stdin that answer from scripted commands in virtual time, formatted like the real tools. */
export function createScriptedExecTools(commands: readonly FakeCommand[], options: ScriptedExecOptions = {}): ScriptedExecTools {
  // The real host's session table: the same ids, pruning notes and messages for exited, pruned and unknown sessions.
  const sessions = new SessionTable<FakeSession>({ maxSessions: options.maxSessions ?? DEFAULT_MAX_SESSIONS });
  const commandsRun: string[] = [];
  const answerOf = createScriptedAnswers(options.files);
  const respond = createFakeExecResponder(sessions);

  const execCommand: ToolImplementation = {
    name: 'exec_command',
    schema: execCommandSchema,
    async execute(raw, context) {
      const args = raw as ExecCommandArgs;
      if (args.workdir !== undefined) {
        const checked = await resolveWorkspacePath(context.workspace, args.workdir);
        if (!checked.ok)
          return errorResult(ErrorCode.OutsideWorkspace, `workdir: ${checked.message}. Use a folder inside ${context.workspace.root}.`);
        const stat = await context.workspace.stat(checked.relative);
        if (stat?.kind !== 'directory')
          return errorResult(ErrorCode.SpawnFailed, `workdir ${JSON.stringify(args.workdir)} is not an existing folder in the workspace.`);
      }
      commandsRun.push(args.cmd);
      const script = commands.find((candidate) => matchesScript(candidate.match, args.cmd));
      if (!script) {
        const known = commands.map((candidate) => String(candidate.match)).join(', ') || 'none';
        return errorResult(
          ErrorCode.ToolFailed,
          `The fake tool host has no scripted command matching ${JSON.stringify(args.cmd)} (scripted: ${known}). Add { match, output } to the fake host's commands.`,
          { [UNSCRIPTED_COMMAND]: args.cmd },
        );
      }
      // Like the real host, every started command takes a session ID, whether or not it outlives the call.
      const notes = sessions.prune();
      const session: FakeSession = {
        id: sessions.allocateId(),
        cmd: args.cmd,
        get running() {
          return this.exitCode === undefined;
        },
        lastUsed: 0,
        announced: false,
        exitReported: false,
        script: answerOf(script, args.cmd),
        elapsedMs: 0,
        printed: false,
        queued: [],
      };
      sessions.add(session);
      const { text, spentMs } = advanceFakeSession(session, clampYieldTime(args.yield_time_ms));
      return respond(session, text, spentMs, context, notes);
    },
  };

  const writeStdin: ToolImplementation = {
    name: 'write_stdin',
    schema: writeStdinSchema,
    normalize: normalizeWriteStdinArgs,
    async execute(raw, context) {
      const args = raw as WriteStdinArgs;
      const session = sessions.live(args.session_id);
      if (!session) return sessions.missing(args.session_id);
      sessions.touch(session);
      const { text, spentMs } = advanceFakeSession(session, clampYieldTime(args.yield_time_ms), args.chars);
      return respond(session, text, spentMs, context);
    },
  };

  return {
    execCommand,
    writeStdin,
    get commandsRun() {
      return commandsRun;
    },
  };
}
