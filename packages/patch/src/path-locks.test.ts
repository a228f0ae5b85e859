import { describe, expect, it } from 'vitest';
import { PathLocks } from './path-locks.js';

describe('PathLocks', () => {
  it('runs holders of overlapping keys one after another and disjoint ones together', async () => {
    const locks = new PathLocks();
    const events: string[] = [];
    const releaseA = await locks.acquire(['x', 'y']);
    let bHeld = false;
    const b = locks.acquire(['y', 'z']).then((release) => {
      bHeld = true;
      events.push('b');
      return release;
    });
    const releaseC = await locks.acquire(['w']);
    events.push('c');
    await Promise.resolve();
    expect(bHeld).toBe(false);
    events.push('a done');
    releaseA();
    const releaseB = await b;
    expect(events).toEqual(['c', 'a done', 'b']);
    releaseB();
    releaseC();
    expect(locks.size).toBe(0);
  });

  it('does not deadlock when two holders list the same keys in opposite order', async () => {
    const locks = new PathLocks();
    const order: number[] = [];
    await Promise.all([
      locks.acquire(['a', 'b']).then((release) => (order.push(1), release())),
      locks.acquire(['b', 'a']).then((release) => (order.push(2), release())),
    ]);
    expect(order).toEqual([1, 2]);
  });
});
