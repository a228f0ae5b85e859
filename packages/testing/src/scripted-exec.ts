import {
  ErrorCode,
  ToolHostError,
  errorResult,
  resolveWorkspacePath,
  type ToolContext,
  type ToolImplementation,
  type ToolResult,
} from '@toolhost/core';
import {
  buildExecResponse,
  clampYieldTime,
  DEFAULT_MAX_SESSIONS,
  execCommandSchema,
  normalizeWriteStdinArgs,
  SessionTable,
  writeStdinSchema,
  type TableSession,
  type ExecCommandArgs,
  type WriteStdinArgs,
} from '@toolhost/exec';
import { matchesInput, matchesScript, type FakeCommand, type FakeCommandAnswer } from './fake-command.js';

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

interface FakeSession extends TableSession {
  script: FakeCommandAnswer;
  /** Virtual milliseconds since the command started. */
  elapsedMs: number;
  printed: boolean;
  exitCode?: number;
  /** Input written before the command was ready for it. */
  queued: string[];
}

/** Creates exec_command / write_stdin that answer from scripted commands in virtual time, formatted like the real tools. */
export function createScriptedExecTools(commands: readonly FakeCommand[], options: ScriptedExecOptions = {}): ScriptedExecTools {
  // The real host's session table: the same ids, pruning notes and messages for exited, pruned and unknown sessions.
  const sessions = new SessionTable<FakeSession>({ maxSessions: options.maxSessions ?? DEFAULT_MAX_SESSIONS });
  const commandsRun: string[] = [];
  const runs = new Map<FakeCommand, number>();
  // The answer of this run of `command`: its fixed one, the next of its sequence, or what its function computes.
  const answerOf = (command: FakeCommand, cmd: string): FakeCommandAnswer => {
    const run = runs.get(command) ?? 0;
    runs.set(command, run + 1);
    if (command.answers) return command.answers[Math.min(run, command.answers.length - 1)];
    if (command.answer) {
      const answer = command.answer({ cmd, run, files: options.files?.() ?? {} });
      if (typeof answer?.output !== 'string')
        throw new ToolHostError('invalid_options', `scripted command ${String(command.match)}: \`answer\` returned no string \`output\``);
      return answer;
    }
    return { output: command.output ?? '', exitCode: command.exitCode, delayMs: command.delayMs, stdin: command.stdin };
  };
  let chunkCounter = 0;
  const chunkId = () => ((0x1a2b3c + ++chunkCounter * 0x9e37) % 0x1000000).toString(16).padStart(6, '0');

  // Advances a session by up to `budgetMs` virtual ms; returns new output and the time spent.
  const advance = (session: FakeSession, budgetMs: number, input?: string): { text: string; spentMs: number } => {
    if (input !== undefined && input !== '') session.queued.push(input);
    const delay = Math.max(0, session.script.delayMs ?? 0);
    let text = '';
    let spentMs = 0;
    if (!session.printed) {
      const remaining = delay - session.elapsedMs;
      if (remaining > budgetMs) {
        session.elapsedMs += budgetMs;
        return { text, spentMs: budgetMs };
      }
      spentMs = Math.max(0, remaining);
      session.elapsedMs = delay;
      session.printed = true;
      text += session.script.output;
      if (!session.script.stdin) {
        session.exitCode = session.script.exitCode ?? 0;
        return { text, spentMs };
      }
    }
    for (const chars of session.queued.splice(0)) {
      if (chars.includes('\u0003')) {
        text += '^C\n';
        session.exitCode = 130;
        return { text, spentMs };
      }
      const reply = session.script.stdin?.find((candidate) => matchesInput(candidate.match, chars));
      if (!reply) continue;
      text += reply.output;
      if (reply.exitCode !== undefined) {
        session.exitCode = reply.exitCode;
        return { text, spentMs };
      }
    }
    // Still waiting for input: a real call waits out its yield time.
    session.elapsedMs += budgetMs - spentMs;
    return { text, spentMs: budgetMs };
  };

  // The real exec response builder, over output that is wholly in memory; then the real host's session bookkeeping.
  const respond = (session: FakeSession, text: string, wallTimeMs: number, context: ToolContext, notes: string[] = []): ToolResult => {
    let spoolPath: string | undefined;
    const result = buildExecResponse({
      chunkId: chunkId(),
      wallTimeMs,
      exitCode: session.exitCode,
      sessionId: session.id,
      notes,
      captured: { head: text, tail: '', omittedChars: 0 },
      tokenizer: context.tokenizer,
      maxOutputTokens: context.maxOutputTokens,
      spoolPath() {
        if (spoolPath === undefined) {
          const writer = context.spool.open('exec_command');
          writer.write(text);
          void writer.end();
          spoolPath = writer.path;
        }
        return spoolPath;
      },
    });
    if (session.exitCode !== undefined) {
      sessions.reportExit(session, session.exitCode);
      sessions.remove(session.id);
    } else sessions.announce(session);
    return result;
  };

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
      const { text, spentMs } = advance(session, clampYieldTime(args.yield_time_ms));
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
      const { text, spentMs } = advance(session, clampYieldTime(args.yield_time_ms), args.chars);
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
