import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, test } from 'vitest';
import type { Spool } from '@toolhost/core';
import { createExecHarness, type ExecHarness } from './__fixtures__/exec-harness.js';

const harnesses: ExecHarness[] = [];
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((harness) => harness.dispose()));
});

/** A spool whose writers report a full backlog until `release()`: a disk slower than the command. */
function stalledSpool(spool: Spool) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let stalled = true;
  let writes = 0;
  void released.then(() => (stalled = false));
  const wrapped: Spool = {
    ...spool,
    open(label) {
      const writer = spool.open(label);
      return {
        get path() {
          return writer.path;
        },
        get bytesWritten() {
          return writer.bytesWritten;
        },
        write(chunk) {
          writes++;
          writer.write(chunk);
          return !stalled;
        },
        drained: () => released,
        end: () => writer.end(),
      };
    },
  };
  return { wrapped, release, writes: () => writes };
}

describe('spool backpressure', () => {
  test('a command is paused while the spool is behind and finishes with every byte once it catches up', async () => {
    const stall = { current: undefined as ReturnType<typeof stalledSpool> | undefined };
    const harness = createExecHarness({ wrapSpool: (spool) => (stall.current = stalledSpool(spool)).wrapped });
    harnesses.push(harness);
    // 2 MB cannot fit in a pipe buffer: while reading is paused the command cannot finish.
    const first = await harness.exec({ cmd: "head -c 2000000 /dev/zero | tr '\\0' x; echo; echo done", yield_time_ms: 1000 });
    expect(first.data?.exit_code).toBeUndefined();
    const sessionId = first.data?.session_id as number;
    expect(typeof sessionId).toBe('number');
    const writesWhilePaused = stall.current!.writes();
    expect(writesWhilePaused).toBeGreaterThan(0);
    stall.current!.release();
    const second = await harness.write({ session_id: sessionId, chars: '', yield_time_ms: 30_000, max_output_tokens: 200 });
    expect(second.data?.exit_code).toBe(0);
    const spoolPath = (second.data?.spool_path ?? first.data?.spool_path) as string;
    const spooled = readFileSync(spoolPath, 'latin1');
    expect(spooled.length).toBe(2_000_000 + 1 + 'done\n'.length);
    expect(spooled.endsWith('x\ndone\n')).toBe(true);
  });
});
