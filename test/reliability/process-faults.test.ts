import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolResult } from '@toolhost/core';
import { liveMarkers, marked, newMarker, outputTokens, startRunning, survivors } from './helpers/process-faults.js';
import { countOpenFds, findMarkedProcesses, killMarkedProcesses, settle, settledHeapUsed } from '../helpers/proc-scan.js';
import { createReliabilityHost } from './helpers/reliability-host.js';
import { describeResult, resultShapeProblems } from './helpers/result-shape.js';
import { createSandbox, type Sandbox } from './helpers/sandbox.js';

const markers: string[] = [];
const mark = (label: string) => {
  const marker = newMarker(label);
  markers.push(marker);
  return marker;
};
let sandbox: Sandbox;
let fdsAtStart: number;
let heapAtStart: number;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

const host = () => createReliabilityHost(sandbox.workspace);

beforeAll(async () => {
  sandbox = createSandbox();
  process.on('unhandledRejection', onUnhandled);
  // Warm up: load every module (exec, PTY backend, code-search) once so the baseline counts only steady-state descriptors.
  const warm = host();
  await warm.call('exec_command', { cmd: 'true', yield_time_ms: 5_000 });
  await warm.call('exec_command', { cmd: 'true', tty: true, yield_time_ms: 5_000 });
  await warm.close();
  fdsAtStart = await settle(countOpenFds, (count) => count <= countOpenFds());
  heapAtStart = settledHeapUsed();
});

afterAll(() => {
  process.off('unhandledRejection', onUnhandled);
  for (const marker of markers) killMarkedProcesses(marker);
  sandbox?.remove();
});

describe('process faults', () => {
  it('kills trees that ignore SIGTERM (pipes and PTY) when the host closes', async () => {
    const marker = mark('sigterm');
    const h = host();
    const ignoring = `trap '' TERM HUP INT; (trap '' TERM HUP; sleep 1000) & (trap '' TERM HUP; sh -c 'trap "" TERM HUP; sleep 1000; :') & sleep 1000 & wait`;
    await startRunning(h, marked(marker, ignoring));
    await startRunning(h, marked(marker, ignoring), { tty: true });
    await startRunning(h, marked(marker, `setsid sh -c 'trap "" TERM HUP; sleep 1000; :' & wait`));
    expect(findMarkedProcesses(marker).length).toBeGreaterThanOrEqual(8);
    await h.close();
    expect(survivors([marker]), 'processes left after close()').toEqual([]);
  });

  it('returns at the yield time for a process that closed its output and keeps running', async () => {
    const marker = mark('closed-stdout');
    const h = host();
    const { sessionId, result } = await startRunning(h, marked(marker, 'echo before-close; exec >&- 2>&-; sleep 1000'), {
      yield_time_ms: 1_000,
    });
    expect(result.output).toContain('before-close');
    const poll = await h.call('write_stdin', { session_id: sessionId, chars: '', yield_time_ms: 500 });
    expect(resultShapeProblems(poll)).toEqual([]);
    expect(poll.ok, describeResult(poll)).toBe(true);
    expect(poll.data?.exit_code, 'the process is still running').toBeUndefined();
    expect(poll.output).toContain(`Process running with session ID ${sessionId}`);
    const input = await h.call('write_stdin', { session_id: sessionId, chars: 'ignored\n', yield_time_ms: 250 });
    expect(resultShapeProblems(input)).toEqual([]);
    expect(findMarkedProcesses(marker).length).toBeGreaterThan(0);
    await h.close();
    expect(survivors([marker])).toEqual([]);
  });

  it('keeps output and memory bounded for a command that prints without newlines', async () => {
    const marker = mark('no-newline');
    const h = host();
    const heapBefore = settledHeapUsed();
    const { sessionId, result } = await startRunning(
      h,
      marked(marker, `while :; do printf 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'; done`),
      {
        yield_time_ms: 2_000,
        max_output_tokens: 1_000,
      },
    );
    expect(outputTokens(result)).toBeLessThanOrEqual(1_000);
    const next = await h.call('write_stdin', { session_id: sessionId, chars: '', yield_time_ms: 2_000, max_output_tokens: 500 });
    expect(next.ok, describeResult(next)).toBe(true);
    expect(outputTokens(next)).toBeLessThanOrEqual(500);
    expect(next.data?.original_token_count as number).toBeGreaterThan(500);
    const growth = settledHeapUsed() - heapBefore;
    console.log(
      `no-newline flood: original tokens ${String(result.data?.original_token_count)} + ${String(next.data?.original_token_count)}, heap growth ${(growth / 2 ** 20).toFixed(1)} MiB`,
    );
    expect(growth).toBeLessThan(64 * 2 ** 20);
    await h.close();
    expect(survivors([marker])).toEqual([]);
  });

  it('caps 100 concurrent sessions at 64 and kills the pruned trees', async () => {
    const base = mark('hundred');
    const h = host();
    const ids = Array.from({ length: 100 }, (_, index) => `${base}-s${index}-end`);
    try {
      const results = await Promise.all(
        ids.map((marker) => h.call('exec_command', { cmd: marked(marker, 'sleep 1000 & wait'), yield_time_ms: 250 })),
      );
      for (const result of results) {
        expect(resultShapeProblems(result)).toEqual([]);
        expect(result.ok, describeResult(result)).toBe(true);
      }
      const live = await settle(
        () => liveMarkers(ids).length,
        (count) => count <= 64,
      );
      const prunedIds = results.flatMap((result) =>
        [...result.output.matchAll(/session (\d+) \(.*?\) was pruned/g)].map((match) => Number(match[1])),
      );
      expect({ live, pruneNotes: prunedIds.length }, 'trees alive once pruning settled, and pruning notes').toEqual({
        live: 64,
        pruneNotes: 36,
      });
      const answer = await h.call('write_stdin', { session_id: prunedIds[0], chars: 'x', yield_time_ms: 250 });
      expect(answer.error?.code, describeResult(answer)).toBe('unknown_session');
    } finally {
      await h.close();
    }
    expect(survivors(ids)).toEqual([]);
  }, 120_000);

  it('prunes past 64 sessions one call at a time and kills what it prunes (background trees of exited commands)', async () => {
    const base = mark('sequential');
    const h = host();
    const ids = Array.from({ length: 100 }, (_, index) => `${base}-s${index}-end`);
    let notes = 0;
    try {
      for (const marker of ids) {
        const result = await h.call('exec_command', {
          cmd: marked(marker, 'sleep 1000 >/dev/null 2>&1 & echo started'),
          yield_time_ms: 5_000,
        });
        expect(result.ok, describeResult(result)).toBe(true);
        notes += result.output.match(/was pruned/g)?.length ?? 0;
      }
      const live = await settle(
        () => liveMarkers(ids).length,
        (count) => count <= 64,
      );
      expect({ live, notes }).toEqual({ live: 64, notes: 36 });
      expect(liveMarkers(ids.slice(0, 36)), 'the oldest 36 trees were pruned and killed').toEqual([]);
    } finally {
      await h.close();
    }
    expect(survivors(ids)).toEqual([]);
  }, 120_000);

  it('answers write_stdin racing the exit of its process with well-formed results', async () => {
    const marker = mark('race');
    const h = host();
    const seen = new Map<string, number>();
    let exitReported = 0;
    for (let round = 0; round < 20; round++) {
      const { sessionId } = await startRunning(h, marked(marker, `head -c 1 >/dev/null; exit 7`), { yield_time_ms: 250 });
      const writes: Promise<ToolResult>[] = [];
      for (let index = 0; index < 4; index++) {
        writes.push(
          h.call('write_stdin', { session_id: sessionId, chars: index === 0 ? 'go' : 'x'.repeat(256 * 1024), yield_time_ms: 250 }),
        );
      }
      for (const result of await Promise.all(writes)) {
        expect(resultShapeProblems(result)).toEqual([]);
        const key = result.ok ? 'ok' : result.error!.code;
        expect(['ok', 'session_exited', 'unknown_session'], describeResult(result)).toContain(key);
        seen.set(key, (seen.get(key) ?? 0) + 1);
        if (/exited with code 7/.test(result.output)) exitReported++;
      }
    }
    console.log(`write_stdin race: ${JSON.stringify(Object.fromEntries(seen))}, exit code 7 reported ${exitReported} times`);
    expect(exitReported).toBeGreaterThanOrEqual(20);
    await h.close();
    expect(survivors([marker])).toEqual([]);
  });

  it('leaves no process, no file descriptor and no retained memory behind', async () => {
    expect(survivors(markers)).toEqual([]);
    const fds = await settle(countOpenFds, (count) => count <= fdsAtStart);
    const heap = settledHeapUsed();
    console.log(
      `process faults: fds ${fdsAtStart} -> ${fds}, heap ${(heapAtStart / 2 ** 20).toFixed(1)} -> ${(heap / 2 ** 20).toFixed(1)} MiB`,
    );
    expect(fds).toBeLessThanOrEqual(fdsAtStart);
    expect(heap - heapAtStart).toBeLessThan(32 * 2 ** 20);
    expect(unhandled.map(String)).toEqual([]);
  });
});
