import { describe, expect, it } from 'vitest';
import { SerialQueue } from './serial-queue.js';

/** A promise with its resolve function, so a test decides when a task ends. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => (resolve = settle));
  return { promise, resolve };
}

describe('SerialQueue', () => {
  it('starts each task only after the one before it settled, in the order they were handed over', async () => {
    const queue = new SerialQueue();
    const events: string[] = [];
    const first = deferred<string>();
    const a = queue.run(async () => {
      events.push('a starts');
      const value = await first.promise;
      events.push('a ends');
      return value;
    });
    const b = queue.run(async () => {
      events.push('b starts');
      return 2;
    });
    await Promise.resolve();
    await Promise.resolve();
    expect(events).toEqual(['a starts']);
    first.resolve('one');
    expect(await a).toBe('one');
    expect(await b).toBe(2);
    expect(events).toEqual(['a starts', 'a ends', 'b starts']);
  });

  it('rejects with the failing task error and still runs the tasks after it', async () => {
    const queue = new SerialQueue();
    const failed = queue.run(async () => {
      throw new Error('broken');
    });
    const thrownSync = queue.run(() => {
      throw new Error('thrown before a promise');
    });
    const after = queue.run(async () => 'still runs');
    await expect(failed).rejects.toThrow('broken');
    await expect(thrownSync).rejects.toThrow('thrown before a promise');
    expect(await after).toBe('still runs');
  });

  it('runs a task handed over from inside a running task after that task', async () => {
    const queue = new SerialQueue();
    const order: string[] = [];
    let inner: Promise<void> | undefined;
    await queue.run(async () => {
      inner = queue.run(async () => {
        order.push('inner');
      });
      order.push('outer');
    });
    await inner;
    expect(order).toEqual(['outer', 'inner']);
  });
});
