import { describe, expect, it } from 'vitest';
import { ProcessListeners } from './process-listeners.js';

describe('ProcessListeners', () => {
  it('queues output until the first data listener, then hands it over in order', () => {
    const listeners = new ProcessListeners();
    listeners.emit(Buffer.from('a'));
    listeners.emit(Buffer.from('b'));
    const seen: string[] = [];
    listeners.onData((chunk) => seen.push(Buffer.from(chunk).toString()));
    listeners.emit(Buffer.from('c'));
    expect(seen).toEqual(['a', 'b', 'c']);
  });

  it('tells each settle listener once, late ones at once, and keeps the first exit', () => {
    const listeners = new ProcessListeners();
    const early: number[] = [];
    listeners.onSettled((exit) => early.push(exit.exitCode));
    expect(listeners.settled).toBe(false);
    listeners.settle({ exitCode: 4 });
    listeners.settle({ exitCode: 9 });
    const late: number[] = [];
    listeners.onSettled((exit) => late.push(exit.exitCode));
    expect(listeners.settled).toBe(true);
    expect(early).toEqual([4]);
    expect(late).toEqual([4]);
  });
});
