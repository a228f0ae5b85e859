import type { ToolContext, ToolResult } from '@toolhost/core';
import { buildExecResponse, type SessionTable } from '@toolhost/exec';
import type { FakeSession } from './fake-session.js';

/** Answers a fake session's call as the real tools do. */
export type FakeExecResponder = (
  session: FakeSession,
  text: string,
  wallTimeMs: number,
  context: ToolContext,
  notes?: string[],
) => ToolResult;

/**
 * Returns the responder of one set of scripted tools: the real exec response builder, over output that is wholly in
 * memory; then the real host's session bookkeeping in `sessions`.
 */
export function createFakeExecResponder(sessions: SessionTable<FakeSession>): FakeExecResponder {
  let chunkCounter = 0;
  const chunkId = () => ((0x1a2b3c + ++chunkCounter * 0x9e37) % 0x1000000).toString(16).padStart(6, '0');
  return (session, text, wallTimeMs, context, notes = []) => {
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
}
