import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { approximateTokenizer, createMemorySpool, createMemoryWorkspace, gptTokenizer, type ToolResult } from '@toolhost/core';
import { createExecHarness, outputOf, type ExecHarness } from './__fixtures__/exec-harness.js';
import { clampYieldTime, createExecTools, DEFAULT_MAX_SESSIONS } from './exec-tools.js';
import type { ExecGateway, ExecRequest } from './exec-gateway.js';
import { findExecutable } from './shell-command.js';
import { readProcessEntry, readProcessTable } from './process-tree.js';
import { processesWithArguments } from '../../../test/helpers/proc-scan.js';

const harnesses: ExecHarness[] = [];
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((harness) => harness.dispose()));
});

/** A harness whose onOutput hook lets a test wait for output without sleeping. */
function harnessWithOutput(options: Parameters<typeof createExecHarness>[0] = {}) {
  const seen = new Map<number, string>();
  const watchers: Array<() => void> = [];
  const harness = createExecHarness({
    ...options,
    onOutput(sessionId, chunk) {
      seen.set(sessionId, (seen.get(sessionId) ?? '') + chunk);
      for (const watcher of [...watchers]) watcher();
    },
  });
  harnesses.push(harness);
  const waitForOutput = (sessionId: number, predicate: (text: string) => boolean) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (!predicate(seen.get(sessionId) ?? '')) return false;
        watchers.splice(watchers.indexOf(watcherRef), 1);
        resolve();
        return true;
      };
      const watcherRef = () => void check();
      watchers.push(watcherRef);
      check();
    });
  return { harness, seen, waitForOutput };
}

function harness(options: Parameters<typeof createExecHarness>[0] = {}): ExecHarness {
  const created = createExecHarness(options);
  harnesses.push(created);
  return created;
}

const sessionOf = (result: ToolResult) => result.data?.session_id as number;

/** Finds processes whose argument list is exactly `command` split on spaces. */
const processesWithCommandLine = (command: string) => processesWithArguments(command.split(' '));

/** Waits (checking /proc on a timer) until `condition` holds; only for observing other processes in tests. */
async function eventually(condition: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('exec_command basics', () => {
  test('echo hi returns exit code 0 and hi, far below the yield time', async () => {
    const result = await harness().exec({ cmd: 'echo hi', yield_time_ms: 20_000 });
    expect(result.ok).toBe(true);
    expect(result.data).toMatchObject({ exit_code: 0, truncated: false, original_token_count: 2 });
    expect(result.data?.session_id).toBeUndefined();
    expect(outputOf(result)).toBe('hi\n');
    expect(result.output).toMatch(
      /^Chunk ID: [0-9a-f]{6}\nWall time: \d+\.\d{4} seconds\nProcess exited with code 0\nOriginal token count: 2\nOutput:\nhi\n$/,
    );
    expect(result.data?.wall_time_ms as number).toBeLessThan(20_000 / 4);
  });

  test('a background child holding stdout does not hold the call: returns at the shell exit', async () => {
    const h = harness();
    const result = await h.exec({ cmd: 'sleep 100.25 & echo started', yield_time_ms: 20_000 });
    expect(result.data).toMatchObject({ exit_code: 0 });
    expect(outputOf(result)).toBe('started\n');
    expect(result.data?.wall_time_ms as number).toBeLessThan(20_000 / 4);
    // The background child stays in the session's tree and dies with close(); it may exec sleep after the shell exits.
    await eventually(() => processesWithCommandLine('sleep 100.25').length === 1);
    await h.tools.close();
    expect(processesWithCommandLine('sleep 100.25')).toHaveLength(0);
  });

  test('exit codes, stderr merged, signals as 128+n', async () => {
    const h = harness();
    const failed = await h.exec({ cmd: 'echo out; echo err >&2; exit 3' });
    expect(failed.data?.exit_code).toBe(3);
    expect(outputOf(failed).split('\n').sort()).toEqual(['', 'err', 'out']);
    const killed = await h.exec({ cmd: 'kill -9 $$' });
    expect(killed.data?.exit_code).toBe(137);
  });

  test('the child gets NO_COLOR, PAGER and GIT_PAGER; workdir runs inside the workspace', async () => {
    const h = harness({ env: { TOOLHOST_TEST: 'yes' } });
    const env = await h.exec({ cmd: 'echo "$NO_COLOR $PAGER $GIT_PAGER $TOOLHOST_TEST"' });
    expect(outputOf(env)).toBe('1 cat cat yes\n');
    mkdirSync(join(h.root, 'sub', 'dir'), { recursive: true });
    const pwd = await h.exec({ cmd: 'pwd', workdir: 'sub/dir' });
    expect(outputOf(pwd).trim()).toBe(join(h.root, 'sub', 'dir'));
    const absolute = await h.exec({ cmd: 'pwd', workdir: join(h.root, 'sub') });
    expect(outputOf(absolute).trim()).toBe(join(h.root, 'sub'));
  });

  test('workdir outside the workspace is outside_workspace; a missing one is spawn_failed', async () => {
    const h = harness();
    for (const workdir of ['/etc', '../', 'a/../../b', '~/x']) {
      const result = await h.exec({ cmd: 'touch escaped', workdir });
      expect(result.error?.code, workdir).toBe('outside_workspace');
    }
    const missing = await h.exec({ cmd: 'true', workdir: 'nope' });
    expect(missing.error?.code).toBe('spawn_failed');
    expect(missing.error?.message).toContain('does not exist');
  });

  test('yield_time_ms is clamped to 250..30000', async () => {
    expect(clampYieldTime(0)).toBe(250);
    expect(clampYieldTime(100)).toBe(250);
    expect(clampYieldTime(5000)).toBe(5000);
    expect(clampYieldTime(3_600_000)).toBe(30_000);
    const result = await harness().exec({ cmd: 'sleep 5', yield_time_ms: 0 });
    expect(result.data?.session_id).toBeTypeOf('number');
    expect(result.data?.wall_time_ms as number).toBeGreaterThanOrEqual(240);
  });

  test('an in-memory workspace cannot run commands', async () => {
    const tools = createExecTools();
    const result = await tools.execCommand.execute(tools.execCommand.schema.parse({ cmd: 'true' }), {
      workspace: createMemoryWorkspace({}),
      spool: createMemorySpool(),
      tokenizer: approximateTokenizer,
      maxOutputTokens: 1000,
      shell: 'unix_like',
      signal: new AbortController().signal,
    });
    expect(result.error?.code).toBe('spawn_failed');
    await tools.close();
  });

  test('the powershell profile runs pwsh, or says clearly that it is missing', async () => {
    const result = await harness().exec({ cmd: 'Write-Output hi' }, { shell: 'powershell' });
    if (findExecutable('pwsh')) expect(outputOf(result)).toBe('hi\n');
    else {
      expect(result.error?.code).toBe('spawn_failed');
      expect(result.error?.message).toContain('pwsh');
    }
  });
});

describe('gateway', () => {
  test('the default gateway denies escalation with permission_denied', async () => {
    const h = harness();
    const result = await h.exec({ cmd: 'touch escalated', sandbox_permissions: 'require_escalated', justification: 'needs it' });
    expect(result.error?.code).toBe('permission_denied');
    expect(existsSync(join(h.root, 'escalated'))).toBe(false);
  });

  test('a custom gateway sees the request before spawning and can deny', async () => {
    const requests: ExecRequest[] = [];
    const gateway: ExecGateway = {
      decide(request) {
        requests.push(request);
        return request.cmd.includes('forbidden') ? { allow: false, reason: 'not allowed here' } : { allow: true };
      },
    };
    const h = harness({ gateway });
    const denied = await h.exec({ cmd: 'touch forbidden', justification: 'why not' });
    expect(denied.error).toEqual({ code: 'permission_denied', message: expect.stringContaining('not allowed here') });
    expect(existsSync(join(h.root, 'forbidden'))).toBe(false);
    const allowed = await h.exec({ cmd: 'echo ok', sandbox_permissions: 'require_escalated', tty: false });
    expect(outputOf(allowed)).toBe('ok\n');
    expect(requests[0]).toEqual({
      cmd: 'touch forbidden',
      workdir: h.root,
      tty: false,
      sandbox_permissions: 'use_default',
      justification: 'why not',
    });
    expect(requests[1]?.sandbox_permissions).toBe('require_escalated');
  });
});

describe('sessions', () => {
  test('a slow command returns a running session; an empty write_stdin later returns the rest and the exit code', async () => {
    const h = harness();
    const first = await h.exec({ cmd: 'sleep 0.3; echo ready', yield_time_ms: 250 });
    expect(first.ok).toBe(true);
    const id = sessionOf(first);
    expect(id).toBeTypeOf('number');
    expect(first.output).toContain(`Process running with session ID ${id}`);
    expect(first.data?.exit_code).toBeUndefined();
    const second = await h.write({ session_id: id, chars: '', yield_time_ms: 20_000 });
    expect(outputOf(first) + outputOf(second)).toBe('ready\n');
    expect(second.data).toMatchObject({ exit_code: 0 });
    expect(second.data?.wall_time_ms as number).toBeLessThan(20_000 / 4);
  });

  test('each call returns only the output produced since the previous call', async () => {
    const { harness: h, waitForOutput } = harnessWithOutput();
    const first = await h.exec({ cmd: 'echo one; read a; echo two-$a; read b; echo three-$b', yield_time_ms: 250 });
    const id = sessionOf(first);
    await waitForOutput(id, (text) => text.includes('one\n'));
    const second = await h.write({ session_id: id, chars: '' });
    expect(outputOf(first) + outputOf(second)).toBe('one\n');
    const third = await h.write({ session_id: String(id), chars: 'A\n' });
    await waitForOutput(id, (text) => text.includes('two-A\n'));
    const fourth = await h.write({ session_id: id, chars: '' });
    expect(outputOf(third) + outputOf(fourth)).toBe('two-A\n');
    const last = await h.write({ session_id: id, chars: 'B\n', yield_time_ms: 20_000 });
    expect(outputOf(last)).toBe('three-B\n');
    expect(last.data?.exit_code).toBe(0);
  });

  test('unknown_session and session_exited are distinct, the latter with the exit code', async () => {
    const h = harness();
    const unknown = await h.write({ session_id: 987_654, chars: '' });
    expect(unknown.error?.code).toBe('unknown_session');
    const running = await h.exec({ cmd: 'read x; exit 7', yield_time_ms: 250 });
    const id = sessionOf(running);
    const done = await h.write({ session_id: id, chars: 'go\n', yield_time_ms: 20_000 });
    expect(done.data?.exit_code).toBe(7);
    const again = await h.write({ session_id: id, chars: '' });
    expect(again.error?.code).toBe('session_exited');
    expect(again.error?.message).toContain('code 7');
    expect(again.data?.exit_code).toBe(7);
  });

  test('a process that exited between calls still reports its output and exit code once', async () => {
    const { harness: h, waitForOutput } = harnessWithOutput();
    const first = await h.exec({ cmd: 'read x; echo "got $x"', yield_time_ms: 250 });
    const id = sessionOf(first);
    const write = await h.write({ session_id: id, chars: 'it\n', yield_time_ms: 20_000 });
    await waitForOutput(id, (text) => text.includes('got it'));
    expect(outputOf(write)).toBe('got it\n');
    expect(write.data?.exit_code).toBe(0);
    const late = await h.write({ session_id: id, chars: 'more\n' });
    expect(late.error?.code).toBe('session_exited');
  });

  test('stdin stays open for pipes and control characters pass through raw', async () => {
    const h = harness();
    const started = await h.exec({ cmd: 'head -c 3 | od -An -tx1', yield_time_ms: 250 });
    const done = await h.write({ session_id: sessionOf(started), chars: '\u0003\u0004\n', yield_time_ms: 20_000 });
    expect(outputOf(started) + outputOf(done)).toMatch(/^\s*03 04 0a\n$/);
    expect(done.data?.exit_code).toBe(0);
  });

  test('at most 64 sessions by default; past that the least recently used is pruned and the result says so', async () => {
    const h = harness();
    expect(DEFAULT_MAX_SESSIONS).toBe(64);
    const started = await Promise.all(Array.from({ length: 64 }, () => h.exec({ cmd: 'read x', yield_time_ms: 250 })));
    const ids = started.map(sessionOf);
    expect(new Set(ids).size).toBe(64);
    expect(h.tools.sessionIds()).toHaveLength(64);
    // Touch the oldest so that the second oldest becomes the least recently used.
    await h.write({ session_id: ids[0]!, chars: '' });
    const extra = await h.exec({ cmd: 'echo extra' });
    expect(extra.output).toContain(`Note: session ${ids[1]} (read x) was pruned to stay within 64 sessions`);
    expect(h.tools.sessionIds()).toHaveLength(63);
    const pruned = await h.write({ session_id: ids[1]!, chars: '' });
    expect(pruned.error?.code).toBe('unknown_session');
    expect(pruned.error?.message).toContain('pruned');
  });

  test('pruning prefers exited sessions over running ones', async () => {
    const h = harness({ maxSessions: 3 });
    const a = sessionOf(await h.exec({ cmd: 'sleep 30', yield_time_ms: 250 }));
    const b = sessionOf(await h.exec({ cmd: 'sleep 30.5 & read x', yield_time_ms: 250 }));
    const c = sessionOf(await h.exec({ cmd: 'sleep 30', yield_time_ms: 250 }));
    // b exits but leaves a background child: it stays in the table as an exited session.
    const exited = await h.write({ session_id: b, chars: '\n', yield_time_ms: 20_000 });
    expect(exited.data?.exit_code).toBe(0);
    expect(h.tools.sessionIds()).toEqual([a, b, c]);
    const d = await h.exec({ cmd: 'sleep 30', yield_time_ms: 250 });
    expect(d.output).toContain(`Note: session ${b} (sleep 30.5 & read x) was pruned`);
    expect(d.output).toContain('had exited');
    expect(h.tools.sessionIds()).toEqual([a, c, sessionOf(d)]);
    await eventually(() => processesWithCommandLine('sleep 30.5').length === 0);
    const e = await h.exec({ cmd: 'echo e' });
    expect(e.output).toContain(`Note: session ${a} (sleep 30) was pruned`);
    expect(e.output).toContain('process tree was killed');
  });

  test('close() kills every process tree and leaves no zombie', async () => {
    const h = harness();
    const result = await h.exec({ cmd: "bash -c 'sleep 1000.75 & sleep 1000.75'", yield_time_ms: 250 });
    expect(result.data?.session_id).toBeTypeOf('number');
    await eventually(() => processesWithCommandLine('sleep 1000.75').length === 2);
    const tree = processesWithCommandLine('sleep 1000.75');
    const shells = [...(readProcessTable()?.values() ?? [])].filter((entry) =>
      tree.some((pid) => readProcessEntry(pid)?.ppid === entry.pid),
    );
    await h.tools.close();
    for (const pid of [...tree, ...shells.map((entry) => entry.pid)]) expect(readProcessEntry(pid), `pid ${pid}`).toBeUndefined();
    const zombies = [...(readProcessTable()?.values() ?? [])].filter((entry) => entry.ppid === process.pid && entry.state === 'Z');
    expect(zombies).toEqual([]);
    expect(h.tools.sessionIds()).toEqual([]);
  });
});

describe('process trees', () => {
  test('close() also kills a child that moved to its own session (found through its parent)', async () => {
    const h = harness();
    const result = await h.exec({ cmd: 'setsid sleep 1001.3 & read x', yield_time_ms: 250 });
    expect(result.data?.session_id).toBeTypeOf('number');
    await eventually(() => processesWithCommandLine('sleep 1001.3').length === 1);
    const [pid] = processesWithCommandLine('sleep 1001.3');
    expect(readProcessEntry(pid!)?.sid).toBe(pid);
    await h.tools.close();
    expect(processesWithCommandLine('sleep 1001.3')).toEqual([]);
  });

  test('close() kills a setsid child of a command that already exited (found through the session marker)', async () => {
    const h = harness();
    const leftovers: Array<{ pid: number; startTime: number }> = [];
    try {
      const result = await h.exec({ cmd: "setsid sh -c 'sleep 3001.7; exit 0' >/dev/null 2>&1 </dev/null &", yield_time_ms: 20_000 });
      expect(result.data?.exit_code).toBe(0);
      await eventually(() => processesWithCommandLine('sleep 3001.7').length === 1);
      const sleeper = readProcessEntry(processesWithCommandLine('sleep 3001.7')[0]!)!;
      const shell = readProcessEntry(sleeper.ppid)!;
      leftovers.push(sleeper, shell);
      // The command's shell is gone and the child left its group and lost its parent: only the marker ties it to the session.
      expect(shell.sid).toBe(shell.pid);
      expect(h.tools.sessionIds()).toHaveLength(1);
      await h.tools.close();
      // Killed: gone, or a zombie of an init that reaps late (beyond our reach), or the pid was reused.
      for (const entry of leftovers) {
        const now = readProcessEntry(entry.pid);
        expect(now === undefined || now.state === 'Z' || now.startTime !== entry.startTime, `pid ${entry.pid} ${now?.state}`).toBe(true);
      }
    } finally {
      for (const entry of leftovers) {
        if (readProcessEntry(entry.pid)?.startTime === entry.startTime) process.kill(entry.pid, 'SIGKILL');
      }
    }
  });

  test('a PTY command that exits is dropped at once, though its wrapper may still be on its way out', async () => {
    const h = harness();
    for (let round = 0; round < 5; round++) {
      const result = await h.exec({ cmd: `echo round ${round}`, tty: true, yield_time_ms: 20_000 });
      expect(result.data?.exit_code).toBe(0);
      expect(h.tools.sessionIds()).toEqual([]);
    }
  });

  test('a PTY command keeps its session while a child without the marker stays in its process group', async () => {
    const h = harness();
    try {
      // The child ignores the terminal's hang-up (sent when the command's wrapper ends) before the command exits.
      const cmd =
        "(trap '' HUP; : > hup-ignored; exec env -i sleep 3003.1) >/dev/null 2>&1 </dev/null & until [ -e hup-ignored ]; do :; done; echo started";
      const result = await h.exec({ cmd, tty: true, yield_time_ms: 20_000 });
      expect(result.data?.exit_code).toBe(0);
      expect(h.tools.sessionIds()).toHaveLength(1);
      await eventually(() => processesWithCommandLine('sleep 3003.1').length === 1);
      await h.tools.close();
      await eventually(() => processesWithCommandLine('sleep 3003.1').length === 0);
    } finally {
      for (const pid of processesWithCommandLine('sleep 3003.1')) process.kill(pid, 'SIGKILL');
    }
  });

  test('pruning an exited session kills its double-forked leftovers', async () => {
    const h = harness({ maxSessions: 1 });
    try {
      const first = await h.exec({
        cmd: "(setsid sh -c 'sleep 3002.3' >/dev/null 2>&1 </dev/null &) ; echo started",
        yield_time_ms: 20_000,
      });
      expect(first.data?.exit_code).toBe(0);
      await eventually(() => processesWithCommandLine('sleep 3002.3').length === 1);
      expect(h.tools.sessionIds()).toHaveLength(1);
      const second = await h.exec({ cmd: 'echo next', yield_time_ms: 20_000 });
      expect(second.output).toContain('had exited; leftover background processes were killed.');
      await eventually(
        () => processesWithCommandLine('sleep 3002.3').length === 0 && processesWithCommandLine('sh -c sleep 3002.3').length === 0,
      );
      expect(h.tools.sessionIds()).toEqual([]);
    } finally {
      for (const pid of [...processesWithCommandLine('sleep 3002.3'), ...processesWithCommandLine('sh -c sleep 3002.3')]) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // gone
        }
      }
    }
  });
});

describe('output', () => {
  test('the preview stays within max_output_tokens, keeps head and tail, and names the spool file', async () => {
    const h = harness();
    const result = await h.exec({ cmd: 'seq 1 100000' }, { maxOutputTokens: 500 });
    expect(gptTokenizer.count(result.output)).toBeLessThanOrEqual(500);
    expect(result.data?.truncated).toBe(true);
    const preview = outputOf(result);
    expect(preview.startsWith('1\n2\n3\n')).toBe(true);
    expect(preview.endsWith('99999\n100000\n')).toBe(true);
    const spool = result.data?.spool_path as string;
    expect(preview).toContain(`Full output: ${spool}`);
    await h.tools.close();
    const expected = Array.from({ length: 100_000 }, (_, i) => `${i + 1}\n`).join('');
    expect(readFileSync(spool, 'utf8')).toBe(expected);
    expect(result.data?.original_token_count as number).toBeGreaterThan(10_000);
  });

  test('every budget from tiny to large holds, header included', async () => {
    const h = harness();
    for (const budget of [60, 100, 257, 1000, 4000]) {
      const result = await h.exec({ cmd: 'for i in $(seq 1 3000); do echo "line $i of some output"; done' }, { maxOutputTokens: budget });
      expect(gptTokenizer.count(result.output), `budget ${budget}`).toBeLessThanOrEqual(budget);
      expect(result.data?.truncated).toBe(true);
      expect(result.output.startsWith('Chunk ID: ')).toBe(true);
    }
  });

  test('invalid UTF-8, binary bytes, NULs and ANSI escapes are shown safely for pipes', async () => {
    const h = harness();
    const result = await h.exec({
      cmd: "printf 'ok \\377\\376 \\000nul \\033[31mred\\033[0m \\033]0;title\\007end\\r\\n'; head -c 20000 /dev/urandom",
    });
    expect(result.ok).toBe(true);
    const preview = outputOf(result);
    expect(preview.startsWith('ok \uFFFD\uFFFD nul red end\n')).toBe(true);
    // eslint-disable-next-line no-control-regex
    expect(preview).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  });

  test('a multi-byte character split across writes is decoded whole', async () => {
    const h = harness();
    const result = await h.exec({ cmd: "printf '\\342\\202'; sleep 0.05; printf '\\254 euro\\n'" });
    expect(outputOf(result)).toBe('€ euro\n');
  });

  test('the streaming hook sees output as it arrives, with the session id', async () => {
    const { harness: h, seen } = harnessWithOutput();
    const result = await h.exec({ cmd: 'echo streamed' });
    expect([...seen.values()]).toEqual(['streamed\n']);
    expect(result.ok).toBe(true);
  });
});

describe('PTY', () => {
  test('cat echoes what write_stdin sends and \\u0004 ends it with exit 0', async () => {
    const { harness: h, waitForOutput } = harnessWithOutput();
    const started = await h.exec({ cmd: 'cat', tty: true, yield_time_ms: 250 });
    const id = sessionOf(started);
    expect(id).toBeTypeOf('number');
    const sent = await h.write({ session_id: id, chars: 'hello\n' });
    await waitForOutput(id, (text) => text.split('hello').length === 3);
    const echoed = await h.write({ session_id: id, chars: '' });
    expect(outputOf(started) + outputOf(sent) + outputOf(echoed)).toBe('hello\nhello\n');
    const ended = await h.write({ session_id: id, chars: '\u0004', yield_time_ms: 20_000 });
    expect(ended.data?.exit_code).toBe(0);
    expect(ended.data?.wall_time_ms as number).toBeLessThan(20_000 / 4);
  });

  test('progress bars and colours are rendered to their final text', async () => {
    const h = harness();
    const result = await h.exec({ cmd: "printf 'progress 10%%\\rprogress 50%%\\rprogress 100%%\\n\\033[31mred\\033[0m\\n'", tty: true });
    expect(result.data?.exit_code).toBe(0);
    expect(outputOf(result)).toBe('progress 100%\nred\n');
  });

  test('the terminal is 24x80 by default and can be resized by option', async () => {
    expect(outputOf(await harness().exec({ cmd: 'stty size', tty: true }))).toBe('24 80\n');
    expect(outputOf(await harness({ terminalSize: { rows: 40, cols: 120 } }).exec({ cmd: 'stty size', tty: true }))).toBe('40 120\n');
  });

  test('\\u0003 interrupts the foreground process', async () => {
    const h = harness();
    const started = await h.exec({ cmd: 'sleep 100', tty: true, yield_time_ms: 250 });
    const result = await h.write({ session_id: sessionOf(started), chars: '\u0003', yield_time_ms: 20_000 });
    expect(result.data?.exit_code).toBe(130);
  });

  test('the pipe and PTY spool files receive the raw bytes', async () => {
    const h = harness();
    const result = await h.exec({ cmd: "printf '\\033[1mbold\\033[0m\\n'; seq 1 20000", tty: true }, { maxOutputTokens: 200 });
    const spool = result.data?.spool_path as string;
    expect(spool).toBeTypeOf('string');
    await h.tools.close();
    const raw = readFileSync(spool, 'latin1');
    expect(raw.startsWith('\u001b[1mbold\u001b[0m\r\n1\r\n')).toBe(true);
    expect(statSync(spool).size).toBe(raw.length);
  });
});

describe('limits', () => {
  test('a command beyond the kernel argument limit is invalid_arguments, not a spawn failure', async () => {
    const result = await harness().exec({ cmd: `echo ${'x'.repeat(200_000)}` }, { maxOutputTokens: 1000 });
    expect(result.error?.code).toBe('invalid_arguments');
    expect(result.error?.message).toContain('apply_patch');
  });

  test('a workdir the file system rejects is a clean spawn_failed', async () => {
    const result = await harness().exec({ cmd: 'true', workdir: 'a'.repeat(300) });
    expect(result.error?.code).toBe('spawn_failed');
    expect(result.error?.message).toContain('longer than the file system allows');
  });
});
