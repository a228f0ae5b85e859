import { describe, expect, test } from 'vitest';
import { SessionTable, type TableSession } from './session-table.js';

function session(id: number, cmd: string, running = true): TableSession & { running: boolean } {
  return { id, cmd, running, lastUsed: 0, announced: false, exitReported: false };
}

describe('SessionTable', () => {
  test('an exit reported before the id was announced is unknown_session; after, session_exited with the code', () => {
    const table = new SessionTable<ReturnType<typeof session>>({ maxSessions: 4 });
    const quick = session(table.allocateId(), 'echo hi', false);
    table.add(quick);
    table.reportExit(quick, 0);
    table.remove(quick.id);
    expect(table.missing(quick.id).error).toMatchObject({ code: 'unknown_session' });
    expect(table.missing(quick.id).error?.message).toBe(
      'No session with ID 1. No session is running. Use the session ID from a "Process running with session ID N" result, or start a command with exec_command.',
    );
    const slow = session(table.allocateId(), 'read x');
    table.add(slow);
    table.announce(slow);
    expect(table.live(slow.id)).toBe(slow);
    expect(table.missing(9).error?.message).toContain('Running sessions: 2.');
    slow.running = false;
    table.reportExit(slow, 3);
    expect(table.live(slow.id)).toBeUndefined();
    const exited = table.missing(slow.id);
    expect(exited.error?.code).toBe('session_exited');
    expect(exited.data).toEqual({ exit_code: 3 });
  });

  test('pruning takes exited sessions first, then the least recently used, and names them afterwards', () => {
    const killed: number[] = [];
    const table = new SessionTable<ReturnType<typeof session>>({ maxSessions: 2, onPrune: (victim) => killed.push(victim.id) });
    const a = session(table.allocateId(), 'sleep   1');
    const b = session(table.allocateId(), 'sleep 2');
    table.add(a);
    table.add(b);
    table.touch(a);
    expect(table.prune()).toEqual([
      'Note: session 2 (sleep 2) was pruned to stay within 2 sessions; it was the least recently used and its process tree was killed.',
    ]);
    const c = session(table.allocateId(), 'x'.repeat(80), false);
    table.add(c);
    expect(table.prune()[0]).toContain(`session 3 (${'x'.repeat(57)}...) was pruned to stay within 2 sessions; it had exited`);
    expect(killed).toEqual([2, 3]);
    expect(table.ids()).toEqual([1]);
    expect(table.missing(2).error?.message).toBe(
      'Session 2 (sleep 2) was pruned to stay within 2 sessions and its process was killed; start it again with exec_command.',
    );
  });

  test('sessions already in the table count: 2 running plus 100 new for 64 places prune 38, the 2 older first', () => {
    const killed: number[] = [];
    const table = new SessionTable<ReturnType<typeof session>>({ maxSessions: 64, onPrune: (victim) => killed.push(victim.id) });
    const earlier = [session(table.allocateId(), 'trap "" TERM; sleep 1000'), session(table.allocateId(), 'trap "" TERM; sleep 1000')];
    for (const running of earlier) table.add(running);
    const notes: string[] = [];
    const hundred: number[] = [];
    for (let i = 0; i < 100; i++) {
      notes.push(...table.prune());
      const added = session(table.allocateId(), `sleep ${i}`);
      table.add(added);
      hundred.push(added.id);
    }
    expect(notes).toHaveLength(38);
    expect(killed).toEqual([...earlier.map((running) => running.id), ...hundred.slice(0, 36)]);
    expect(table.ids()).toEqual(hundred.slice(36));
  });
});
