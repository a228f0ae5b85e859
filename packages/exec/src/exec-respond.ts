import type { ToolContext, ToolResult } from '@toolhost/core';
import { buildExecResponse } from './exec-response.js';
import type { ExecSession } from './exec-session.js';
import type { SessionTable } from './session-table.js';

/** Waits for the command's exit or the yield time, then reads the new output and builds the answer. */
export type Respond = (
  session: ExecSession,
  started: number,
  yieldMs: number,
  context: ToolContext,
  notes: string[],
) => Promise<ToolResult>;

/** What the answers of a set of exec tools share. */
export interface RespondParts {
  sessions: SessionTable<ExecSession>;
  /** Keeps a kill or release in flight until close() has awaited it. */
  track: (promise: Promise<unknown>) => void;
  isClosed(): boolean;
}

/** Creates the answer of exec_command and write_stdin: the output window, the exit, and the session's bookkeeping. */
export function createResponder(parts: RespondParts): Respond {
  const { sessions, track } = parts;
  return async (session: ExecSession, started: number, yieldMs: number, context: ToolContext, notes: string[]): Promise<ToolResult> => {
    await session.waitForExit(Math.max(0, yieldMs - (performance.now() - started)), context.signal);
    const cancelled = context.signal.aborted && !session.exit && !parts.isClosed();
    if (cancelled) {
      // The caller cancelled the call: kill the command's whole tree and report how it ended.
      await session.terminate().catch(() => {});
      await session.waitForExit(5_000);
      notes.push('Note: the call was cancelled, so the command and every process it started were killed.');
    }
    // Read the exit state before the output: once exited, the output is drained, so this read holds all of it.
    const exit = session.exit;
    const wallTimeMs = performance.now() - started;
    // Whether processes of the command remain is looked up (in /proc) while the response is built.
    const lingering = exit ? session.hasLingeringProcesses() : undefined;
    lingering?.catch(() => {});
    const captured = await session.read();
    // Once the process has exited and its output is read, an open spool file is finished while the response is built.
    const releasedEarly = exit && session.spoolOpen ? session.release() : undefined;
    const result = buildExecResponse({
      wallTimeMs,
      exitCode: exit?.exitCode,
      sessionId: session.id,
      notes,
      cancelled,
      captured,
      tokenizer: context.tokenizer,
      maxOutputTokens: context.maxOutputTokens,
      spoolPath: () => session.spoolPath(),
    });
    if (exit) {
      sessions.reportExit(session, exit.exitCode);
      // Free the buffers; the response names the spool file: let it hold every byte before the caller can read it.
      const released = releasedEarly ?? session.release();
      track(released);
      // Keep the session only while processes of it remain, so pruning and close() kill them.
      if (!(await lingering)) sessions.remove(session.id);
      if (result.data?.spool_path !== undefined) await released;
    } else sessions.announce(session);
    return result;
  };
}
