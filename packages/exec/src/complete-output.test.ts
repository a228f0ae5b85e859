import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { afterAll, describe, expect, test } from 'vitest';
import type { ToolResult } from '@toolhost/core';
import { createExecHarness, outputOf } from './__fixtures__/exec-harness.js';

const harness = createExecHarness();
afterAll(() => harness.dispose());

/** Digest and size of what `seq 1 n` prints, with the line ending the backend delivers. */
function expectedSeq(lines: number, newline: string): { size: number; sha: string } {
  const hash = createHash('sha256');
  let size = 0;
  let batch = '';
  for (let i = 1; i <= lines; i++) {
    batch += `${i}${newline}`;
    if (batch.length > 1 << 16 || i === lines) {
      hash.update(batch, 'latin1');
      size += batch.length;
      batch = '';
    }
  }
  return { size, sha: hash.digest('hex') };
}

async function digestFile(path: string): Promise<{ size: number; sha: string }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(path)) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { size, sha: hash.digest('hex') };
}

/** Asserts the exit was reported and the preview and the spool end where the output ends. */
async function expectComplete(result: ToolResult, lines: number, tty: boolean, expected: { size: number; sha: string }) {
  expect(result.data?.exit_code, result.output.slice(0, 300)).toBe(0);
  expect(outputOf(result).endsWith(`\n${lines - 1}\n${lines}\n`), outputOf(result).slice(-80)).toBe(true);
  const spool = result.data?.spool_path as string;
  expect(spool, 'a cut preview names the spool').toBeTypeOf('string');
  expect(await digestFile(spool), tty ? 'PTY spool' : 'pipe spool').toEqual(expected);
}

for (const tty of [true, false]) {
  const newline = tty ? '\r\n' : '\n';
  describe(`${tty ? 'PTY' : 'pipe'} output is complete when the exit is reported`, () => {
    test('20,000 lines, 10 runs, 5 at a time (a loaded machine)', async () => {
      const expected = expectedSeq(20_000, newline);
      for (let batch = 0; batch < 2; batch++) {
        const results = await Promise.all(
          Array.from({ length: 5 }, () => harness.exec({ cmd: 'seq 1 20000', tty, yield_time_ms: 30_000 }, { maxOutputTokens: 500 })),
        );
        for (const result of results) await expectComplete(result, 20_000, tty, expected);
      }
    }, 120_000);

    test('200,000 lines, 3 runs', async () => {
      const expected = expectedSeq(200_000, newline);
      for (let run = 0; run < 3; run++) {
        await expectComplete(
          await harness.exec({ cmd: 'seq 1 200000', tty, yield_time_ms: 30_000 }, { maxOutputTokens: 500 }),
          200_000,
          tty,
          expected,
        );
      }
    }, 120_000);

    test('2,000,000 lines', async () => {
      const result = await harness.exec({ cmd: 'seq 1 2000000', tty, yield_time_ms: 30_000 }, { maxOutputTokens: 500 });
      await expectComplete(result, 2_000_000, tty, expectedSeq(2_000_000, newline));
    }, 120_000);

    test('20,000 lines while a background child keeps the output open: reported at the exit, not when the child ends', async () => {
      const expected = expectedSeq(20_000, newline);
      for (let run = 0; run < 3; run++) {
        // The child ignores the hang-up the terminal sends when the shell exits, so it outlives the command.
        const result = await harness.exec(
          { cmd: "(trap '' HUP; exec sleep 60) & seq 1 20000", tty, yield_time_ms: 30_000 },
          { maxOutputTokens: 500 },
        );
        await expectComplete(result, 20_000, tty, expected);
        expect(result.data?.wall_time_ms as number).toBeLessThan(30_000);
      }
    }, 120_000);

    test('the exit status, a TERM to the whole group and a failing command are reported exactly', async () => {
      const failing = await harness.exec({ cmd: 'seq 1 3000; exit 7', tty, yield_time_ms: 30_000 });
      expect(failing.data?.exit_code).toBe(7);
      expect(outputOf(failing).endsWith('\n2999\n3000\n')).toBe(true);
      const terminated = await harness.exec({ cmd: 'seq 1 3000; kill 0; sleep 5', tty, yield_time_ms: 30_000 });
      expect(terminated.data?.exit_code).toBe(143);
      // bash may add its own `Terminated` line after the output.
      expect(outputOf(terminated)).toMatch(/\n2999\n3000\n(Terminated\n)?$/);
    }, 60_000);
  });
}
