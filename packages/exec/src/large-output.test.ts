import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { afterEach, expect, test } from 'vitest';
import { gptTokenizer } from '@toolhost/core';
import { createExecHarness, outputOf, type ExecHarness } from './__fixtures__/exec-harness.js';
import { findExecutable } from './shell-command.js';

const harnesses: ExecHarness[] = [];
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((harness) => harness.dispose()));
});

function residentKb(field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync('/proc/self/status', 'utf8'));
  return Number(match?.[1] ?? 0);
}

/** Resets the kernel's peak-RSS mark (VmHWM) to the current RSS; false where the kernel does not allow it. */
function resetPeak(): boolean {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}

test.each([false, true])(
  '100 MB of output (tty %s): bounded memory, preview within budget, all bytes in the spool',
  async (tty) => {
    expect(findExecutable('python3'), 'python3 is needed for this test').toBeDefined();
    const harness = createExecHarness();
    harnesses.push(harness);
    // Warm up (tokenizer, spawn path) so the measurement covers the command alone.
    await harness.exec({ cmd: 'seq 1 1000', tty }, { maxOutputTokens: 100 });
    (globalThis as { gc?: () => void }).gc?.();
    const before = residentKb('VmRSS');
    const canReset = resetPeak();
    let sampledPeak = before;
    const sampler = setInterval(() => {
      sampledPeak = Math.max(sampledPeak, Math.round(process.memoryUsage().rss / 1024));
    }, 10);
    const result = await harness.exec({ cmd: `python3 -c 'print("x"*10**8)'`, tty, yield_time_ms: 30_000 });
    // A PTY is slower than a pipe: poll until the command has exited.
    let exited = result;
    while (exited.data?.exit_code === undefined)
      exited = await harness.write({ session_id: result.data?.session_id, chars: '', yield_time_ms: 30_000 });
    clearInterval(sampler);
    const peak = Math.max(sampledPeak, canReset ? residentKb('VmHWM') : 0);
    const growthMb = (peak - before) / 1024;
    expect(exited.data?.exit_code).toBe(0);
    expect(growthMb).toBeLessThan(64);
    expect(gptTokenizer.count(exited.output)).toBeLessThanOrEqual(10_000);
    expect(exited.data?.truncated).toBe(true);
    const preview = outputOf(exited);
    expect(preview.startsWith('xxxx')).toBe(true);
    expect(preview.endsWith('xxxx\n')).toBe(true);
    expect(exited.data?.original_token_count as number).toBeGreaterThan(result === exited ? 1_000_000 : 100);
    const spool = (exited.data?.spool_path ?? result.data?.spool_path) as string;
    expect(preview).toContain(spool);
    await harness.tools.close();
    expect(statSync(spool).size).toBe(tty ? 100_000_002 : 100_000_001);
    console.log(
      `100 MB run (tty ${tty}): RSS growth ${growthMb.toFixed(1)} MB (peak via ${canReset ? 'VmHWM + sampling' : 'sampling'}), wall ${String(exited.data?.wall_time_ms)} ms`,
    );
  },
  240_000,
);
