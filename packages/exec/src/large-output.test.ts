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

test('100 MB of output: bounded memory, preview within budget, all bytes in the spool', async () => {
  expect(findExecutable('python3'), 'python3 is needed for this test').toBeDefined();
  const harness = createExecHarness();
  harnesses.push(harness);
  // Warm up (tokenizer, spawn path) so the measurement covers the command alone.
  await harness.exec({ cmd: 'seq 1 1000' }, { maxOutputTokens: 100 });
  (globalThis as { gc?: () => void }).gc?.();
  const before = residentKb('VmRSS');
  const canReset = resetPeak();
  let sampledPeak = before;
  const sampler = setInterval(() => {
    sampledPeak = Math.max(sampledPeak, Math.round(process.memoryUsage().rss / 1024));
  }, 10);
  const result = await harness.exec({ cmd: `python3 -c 'print("x"*10**8)'`, yield_time_ms: 30_000 });
  clearInterval(sampler);
  const peak = Math.max(sampledPeak, canReset ? residentKb('VmHWM') : 0);
  const growthMb = (peak - before) / 1024;
  expect(result.data?.exit_code).toBe(0);
  expect(growthMb).toBeLessThan(64);
  expect(gptTokenizer.count(result.output)).toBeLessThanOrEqual(10_000);
  expect(result.data?.truncated).toBe(true);
  const preview = outputOf(result);
  expect(preview.startsWith('xxxx')).toBe(true);
  expect(preview.endsWith('xxxx\n')).toBe(true);
  expect(result.data?.original_token_count as number).toBeGreaterThan(1_000_000);
  const spool = result.data?.spool_path as string;
  expect(preview).toContain(spool);
  await harness.tools.close();
  expect(statSync(spool).size).toBe(100_000_001);
  console.log(`100 MB run: RSS growth ${growthMb.toFixed(1)} MB (peak via ${canReset ? 'VmHWM + sampling' : 'sampling'}), wall ${result.data?.wall_time_ms} ms`);
}, 120_000);
