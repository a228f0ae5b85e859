import { ErrorCode, errorResult, type ToolResult } from '@toolhost/core';

/** What the session table needs to know about one session; the table manages the mutable fields. */
export interface TableSession {
  /** The session id shown to the model. */
  readonly id: number;
  /** The command, for pruning notes and messages. */
  readonly cmd: string;
  /** True while the process has not exited. */
  readonly running: boolean;
  /** Logical clock of the last call that used this session (for LRU pruning). */
  lastUsed: number;
  /** True once a response showed the model this session's id (it was still running). */
  announced: boolean;
  /** True once a response reported the exit to the model. */
  exitReported: boolean;
}

/** Options of {@link SessionTable}. */
export interface SessionTableOptions<T extends TableSession> {
  /** Most sessions kept at once. */
  maxSessions: number;
  /** Called with each session pruned to make room (kill its processes here). */
  onPrune?: (session: T) => void;
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

/** Shortens a command to one line of at most 60 characters, for messages. */
export function describeCommand(cmd: string): string {
  const line = cmd.replace(/\s+/g, ' ').trim();
  return line.length > 60 ? `${line.slice(0, 57)}...` : line;
}

/**
 * The exec session table without processes: session ids, LRU pruning with its notes, which exits were reported, and
 * the messages for a session that is gone. Shared by the real exec tools and the fake tool host so both answer alike.
 */
export class SessionTable<T extends TableSession> {
  /** Most sessions kept at once. */
  readonly maxSessions: number;
  private readonly sessions = new Map<number, T>();
  /** Exit codes of sessions whose exit a response reported after their id was announced, for `session_exited`. */
  private readonly exited = new BoundedMemory<number>(4096);
  private readonly pruned = new BoundedMemory<string>(4096);
  private readonly onPrune: ((session: T) => void) | undefined;
  private nextSessionId = 1;
  private clock = 0;

  constructor(options: SessionTableOptions<T>) {
    this.maxSessions = Math.max(1, Math.floor(options.maxSessions));
    this.onPrune = options.onPrune;
  }

  /** Takes the next session id. */
  allocateId(): number {
    return this.nextSessionId++;
  }

  /** Makes room for one more session (exited before running, least recently used first); returns the notes for the model. */
  prune(): string[] {
    const notes: string[] = [];
    while (this.sessions.size >= this.maxSessions) {
      let victim: T | undefined;
      for (const session of this.sessions.values()) {
        const better =
          !victim || (!session.running && victim.running) || (session.running === victim.running && session.lastUsed < victim.lastUsed);
        if (better) victim = session;
      }
      if (!victim) break;
      const wasRunning = victim.running;
      this.sessions.delete(victim.id);
      this.pruned.set(victim.id, victim.cmd);
      this.onPrune?.(victim);
      notes.push(
        `Note: session ${victim.id} (${describeCommand(victim.cmd)}) was pruned to stay within ${this.maxSessions} sessions; ` +
          (wasRunning
            ? 'it was the least recently used and its process tree was killed.'
            : 'it had exited; leftover background processes were killed.'),
      );
    }
    return notes;
  }

  /** Adds a session and marks it used. */
  add(session: T): void {
    this.sessions.set(session.id, session);
    this.touch(session);
  }

  /** Marks a session as the most recently used. */
  touch(session: T): void {
    session.lastUsed = ++this.clock;
  }

  /** The session the model may still address: kept and its exit not yet reported. */
  live(id: number): T | undefined {
    const session = this.sessions.get(id);
    return session && !session.exitReported ? session : undefined;
  }

  /** A response showed the model this running session's id. */
  announce(session: T): void {
    session.announced = true;
  }

  /** A response reported the session's exit; from now on its id answers `session_exited` (if it was announced). */
  reportExit(session: T, exitCode: number): void {
    session.exitReported = true;
    if (session.announced) this.exited.set(session.id, exitCode);
  }

  /** Forgets a session (its processes are gone or being killed). */
  remove(id: number): void {
    this.sessions.delete(id);
  }

  /** Ids of the sessions kept. */
  ids(): number[] {
    return [...this.sessions.keys()];
  }

  /** Removes and returns every session. */
  clear(): T[] {
    const all = [...this.sessions.values()];
    this.sessions.clear();
    return all;
  }

  /** The error for a session id that is no longer (or never was) live. */
  missing(id: number): ToolResult {
    const code = this.exited.get(id);
    if (code !== undefined) {
      return errorResult(
        ErrorCode.SessionExited,
        `Session ${id} has already exited with code ${code}; its output was returned. Start a new command with exec_command.`,
        { exit_code: code },
      );
    }
    const cmd = this.pruned.get(id);
    if (cmd !== undefined) {
      return errorResult(
        ErrorCode.UnknownSession,
        `Session ${id} (${describeCommand(cmd)}) was pruned to stay within ${this.maxSessions} sessions and its process was killed; start it again with exec_command.`,
      );
    }
    const running = [...this.sessions.values()].filter((session) => session.running && session.announced).map((session) => session.id);
    const hint = running.length > 0 ? `Running sessions: ${running.join(', ')}.` : 'No session is running.';
    return errorResult(
      ErrorCode.UnknownSession,
      `No session with ID ${id}. ${hint} Use the session ID from a "Process running with session ID N" result, or start a command with exec_command.`,
    );
  }
}
