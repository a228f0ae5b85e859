import type { TableSession } from '@toolhost/exec';
import { matchesInput, type FakeCommandAnswer } from './fake-command.js';

/** A scripted command's session, run in virtual time. */
export interface FakeSession extends TableSession {
  script: FakeCommandAnswer;
  /** Virtual milliseconds since the command started. */
  elapsedMs: number;
  printed: boolean;
  exitCode?: number;
  /** Input written before the command was ready for it. */
  queued: string[];
}

/** Advances a session by up to `budgetMs` virtual ms; returns new output and the time spent. */
export function advanceFakeSession(session: FakeSession, budgetMs: number, input?: string): { text: string; spentMs: number } {
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
}
