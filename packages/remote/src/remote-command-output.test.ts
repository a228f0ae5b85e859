import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ProcessExit } from '@toolhost/core';
import { ExitSentinelScanner } from '@toolhost/core';
import { RemoteCommandOutput } from './remote-command-output.js';

const NONCE = '0123456789ABCDEF01234567';
const sentinel = (status: number) => Buffer.from(`\u001b]777;${NONCE};${status}\u0007`, 'latin1');

function harness() {
  const received: string[] = [];
  const settled: ProcessExit[] = [];
  const release = vi.fn();
  const output = new RemoteCommandOutput(new ExitSentinelScanner(NONCE), release);
  output.onData((chunk) => received.push(Buffer.from(chunk).toString('latin1')));
  output.onSettled((exit) => settled.push(exit));
  return { output, received, settled, release, text: () => received.join('') };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('RemoteCommandOutput', () => {
  it('settles on the sentinel with every byte before it, the sentinel removed, and releases the transport once', () => {
    const h = harness();
    h.output.receive(Buffer.from('one\ntwo\n'));
    expect(h.settled).toEqual([]);
    h.output.receive(Buffer.concat([Buffer.from('three\n'), sentinel(3)]));
    expect(h.text()).toBe('one\ntwo\nthree\n');
    expect(h.settled).toEqual([{ exitCode: 3 }]);
    h.output.receive(Buffer.from('late'));
    h.output.settle();
    expect(h.text()).toBe('one\ntwo\nthree\n');
    expect(h.release).toHaveBeenCalledTimes(1);
  });

  it('finds a sentinel split across chunks and passes on what only looked like its start', () => {
    const h = harness();
    const whole = Buffer.concat([Buffer.from('a\u001b]777;'), Buffer.from('x\n'), sentinel(0)]);
    for (let index = 0; index < whole.length; index += 3) h.output.receive(whole.subarray(index, index + 3));
    expect(h.text()).toBe('a\u001b]777;x\n');
    expect(h.settled).toEqual([{ exitCode: 0 }]);
  });

  it('queues output until a listener comes, and tells a late settle listener at once', () => {
    const output = new RemoteCommandOutput(new ExitSentinelScanner(NONCE), () => {});
    output.receive(Buffer.concat([Buffer.from('early'), sentinel(0)]));
    const seen: string[] = [];
    output.onData((chunk) => seen.push(Buffer.from(chunk).toString()));
    const exits: ProcessExit[] = [];
    output.onSettled((exit) => exits.push(exit));
    expect(seen).toEqual(['early']);
    expect(exits).toEqual([{ exitCode: 0 }]);
  });

  it('after a transport exit of a start shell that ran to its end, waits for the sentinel behind the output', () => {
    const h = harness();
    h.output.exited({ exitCode: 0 });
    vi.advanceTimersByTime(4_000);
    expect(h.settled).toEqual([]);
    h.output.receive(Buffer.from('tail\n'));
    vi.advanceTimersByTime(4_000);
    expect(h.settled).toEqual([]);
    h.output.receive(sentinel(0));
    expect(h.text()).toBe('tail\n');
    expect(h.settled).toEqual([{ exitCode: 0 }]);
  });

  it('gives up on the sentinel after 5 s of silence (a start shell that could not run writes none)', () => {
    const h = harness();
    h.output.exited({ exitCode: 127 });
    vi.advanceTimersByTime(4_999);
    expect(h.settled).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(h.settled).toEqual([{ exitCode: 127 }]);
  });

  it('after a killed start shell, settles once output is quiet for 25 ms, at the latest after 250 ms', () => {
    const quiet = harness();
    quiet.output.exited({ exitCode: 137, signal: 'SIGKILL' });
    vi.advanceTimersByTime(24);
    expect(quiet.settled).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(quiet.settled).toEqual([{ exitCode: 137, signal: 'SIGKILL' }]);

    const busy = harness();
    busy.output.exited({ exitCode: 143 });
    for (let elapsed = 0; elapsed < 240; elapsed += 20) {
      busy.output.receive(Buffer.from('.'));
      vi.advanceTimersByTime(20);
    }
    expect(busy.settled).toEqual([]);
    vi.advanceTimersByTime(10);
    expect(busy.settled).toEqual([{ exitCode: 143 }]);
    expect(busy.text()).toBe('.'.repeat(12));
  });

  it('settles at once when the transport says its stream has ended, flushing bytes held as a possible sentinel', () => {
    const h = harness();
    h.output.receive(Buffer.from('out\u001b]777;'));
    expect(h.text()).toBe('out');
    h.output.exited({ exitCode: 1 }, true);
    expect(h.text()).toBe('out\u001b]777;');
    expect(h.settled).toEqual([{ exitCode: 1 }]);
  });

  it('reports SIGKILL for a status of 128 or more once toolhost killed the command', () => {
    const h = harness();
    h.output.killed = true;
    h.output.receive(sentinel(137));
    expect(h.settled).toEqual([{ exitCode: 137, signal: 'SIGKILL' }]);
    const unkilled = harness();
    unkilled.output.receive(sentinel(137));
    expect(unkilled.settled).toEqual([{ exitCode: 137 }]);
  });

  it('keeps the first exit it learns and never settles without one', () => {
    const h = harness();
    h.output.settle();
    expect(h.settled).toEqual([]);
    expect(h.output.hasExit).toBe(false);
    h.output.exited({ exitCode: 2 }, true);
    h.output.exited({ exitCode: 255 }, true);
    expect(h.settled).toEqual([{ exitCode: 2 }]);
    expect(h.release).toHaveBeenCalledTimes(1);
  });
});
