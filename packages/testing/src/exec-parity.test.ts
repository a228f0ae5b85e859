import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { gptTokenizer, type ToolContext, type ToolImplementation, type ToolResult } from '@toolhost/core';
import { createFileSpool, createNodeWorkspace } from '@toolhost/core/node';
import { createExecTools } from '@toolhost/exec';
import { createToolHost } from 'toolhost';
import { createFakeToolHost } from './create-fake-tool-host.js';
import type { FakeCommand } from './fake-command.js';
import { createScriptedExecTools } from './scripted-exec.js';

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});
const folder = (prefix: string) => {
  const created = mkdtempSync(join(tmpdir(), prefix));
  folders.push(created);
  return created;
};

/** What must be identical between the real and the fake host: outcome, error code and message, session bookkeeping and notes. */
function comparable(result: ToolResult) {
  return {
    ok: result.ok,
    error: result.error,
    exit_code: result.data?.exit_code,
    session_id: result.data?.session_id,
    notes: result.output.split('\n').filter((line) => line.startsWith('Note:')),
  };
}

const waitsForInput = (cmd: string): FakeCommand => ({ match: cmd, output: '', stdin: [{ match: /[^]*/, output: '', exitCode: 0 }] });

describe('the fake exec answers like the real one', () => {
  it('the same call sequence gives the same codes and messages (createToolHost vs createFakeToolHost)', async () => {
    const real = createToolHost({ workspace: folder('toolhost-parity-'), spoolDir: folder('toolhost-parity-spool-') });
    const fake = createFakeToolHost({ commands: [{ match: 'echo hi', output: 'hi\n' }, waitsForInput('read line')] });
    const steps: Array<[string, Record<string, unknown>]> = [
      ['exec_command', { cmd: 'echo hi', yield_time_ms: 20_000 }],
      // Exited before its id was ever shown: unknown, not exited.
      ['write_stdin', { session_id: 1, chars: '' }],
      ['exec_command', { cmd: 'read line', yield_time_ms: 250 }],
      ['write_stdin', { session_id: 7, chars: '' }],
      ['write_stdin', { session_id: 2, chars: 'go\n', yield_time_ms: 20_000 }],
      ['write_stdin', { session_id: 2, chars: '' }],
      ['write_stdin', { session_id: 1, chars: 'late\n' }],
    ];
    try {
      const realResults: unknown[] = [];
      const fakeResults: unknown[] = [];
      for (const [name, args] of steps) {
        realResults.push(comparable(await real.call(name, args)));
        fakeResults.push(comparable(await fake.call(name, args)));
      }
      expect(fakeResults).toEqual(realResults);
      expect(realResults).toMatchObject([
        { ok: true, exit_code: 0 },
        { ok: false, error: { code: 'unknown_session' } },
        { ok: true, session_id: 2 },
        { ok: false, error: { code: 'unknown_session', message: expect.stringContaining('Running sessions: 2.') } },
        { ok: true, exit_code: 0 },
        { ok: false, error: { code: 'session_exited' } },
        { ok: false, error: { code: 'unknown_session' } },
      ]);
    } finally {
      await real.close();
      await fake.close();
    }
  });

  it('pruning past the session limit gives the same notes and messages', async () => {
    const root = folder('toolhost-parity-prune-');
    const spool = createFileSpool(folder('toolhost-parity-prune-spool-'));
    const context: ToolContext = {
      workspace: createNodeWorkspace(root),
      spool,
      tokenizer: gptTokenizer,
      maxOutputTokens: 10_000,
      shell: 'unix_like',
      signal: new AbortController().signal,
    };
    const real = createExecTools({ maxSessions: 2 });
    const fake = createScriptedExecTools([waitsForInput('read a'), waitsForInput('read b'), { match: 'echo c', output: 'c\n' }], {
      maxSessions: 2,
    });
    const call = (tool: ToolImplementation, args: Record<string, unknown>) => {
      const normalized = tool.normalize ? tool.normalize(args) : args;
      return tool.execute(tool.schema.parse(normalized), context);
    };
    const steps: Array<['exec' | 'write', Record<string, unknown>]> = [
      ['exec', { cmd: 'read a', yield_time_ms: 250 }],
      ['exec', { cmd: 'read b', yield_time_ms: 250 }],
      ['write', { session_id: 1, chars: '' }],
      // Session 2 is now the least recently used: pruned to make room.
      ['exec', { cmd: 'echo c', yield_time_ms: 20_000 }],
      ['write', { session_id: 2, chars: '' }],
      ['write', { session_id: 1, chars: 'x\n', yield_time_ms: 20_000 }],
      ['write', { session_id: 1, chars: '' }],
    ];
    try {
      const realResults: unknown[] = [];
      const fakeResults: unknown[] = [];
      for (const [kind, args] of steps) {
        realResults.push(comparable(await call(kind === 'exec' ? real.execCommand : real.writeStdin, args)));
        fakeResults.push(comparable(await call(kind === 'exec' ? fake.execCommand : fake.writeStdin, args)));
      }
      expect(fakeResults).toEqual(realResults);
      expect(realResults[3]).toMatchObject({
        notes: [
          'Note: session 2 (read b) was pruned to stay within 2 sessions; it was the least recently used and its process tree was killed.',
        ],
      });
      expect(realResults[4]).toMatchObject({ error: { code: 'unknown_session', message: expect.stringContaining('was pruned') } });
      expect(realResults[6]).toMatchObject({ error: { code: 'session_exited' } });
    } finally {
      await real.close();
      await spool.dispose();
    }
  });
});
