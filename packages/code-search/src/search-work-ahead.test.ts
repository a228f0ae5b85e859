import { describe, expect, it } from 'vitest';
import type { ScanAssist } from './scan-assist.js';
import { unreadFacts, type FileFacts } from './scan-file.js';
import { createWorkAhead, MAX_AHEAD } from './search-work-ahead.js';

/** Claims in one thread: the worker holds the indexes in `worker`. */
function claims(worker: number[]): ScanAssist & { byScan: Set<number> } {
  const byScan = new Set<number>();
  return {
    byScan,
    claim: (index) => !worker.includes(index) && (byScan.add(index), true),
    taken: (index) => worker.includes(index),
    answered: () => false,
    result: () => Promise.resolve(undefined),
    overflowed: () => {},
    stop: () => {},
  };
}

describe('reading ahead while the other thread holds a file', () => {
  it('claims and reads the next file no one holds that may add, one a call, and hands its facts over once', async () => {
    const files = ['a.ts', 'b.ts', 'c.md', 'd.ts', 'e.ts'];
    const assist = claims([0, 1]);
    const read: number[] = [];
    const facts = new Map<number, FileFacts>();
    const ahead = createWorkAhead({
      files,
      assist,
      mayAdd: (path) => !path.endsWith('.md'),
      read: (index) => {
        read.push(index);
        facts.set(index, unreadFacts());
        return Promise.resolve(facts.get(index));
      },
    });
    expect(await ahead.next(0)).toBe(true);
    expect(await ahead.next(0)).toBe(true);
    expect(read).toEqual([3, 4]);
    expect([...assist.byScan]).toEqual([3, 4]);
    expect(await ahead.next(0)).toBe(false);
    expect(await ahead.take(3)).toBe(facts.get(3));
    expect(ahead.take(3)).toBeUndefined();
    expect(ahead.take(2)).toBeUndefined();
  });

  it('reads no further than MAX_AHEAD past the file it waits for', async () => {
    const files = Array.from({ length: MAX_AHEAD + 5 }, (_, index) => `f${index}.ts`);
    const worker = Array.from({ length: MAX_AHEAD + 1 }, (_, index) => index);
    const read: number[] = [];
    const ahead = createWorkAhead({
      files,
      assist: claims(worker),
      mayAdd: () => true,
      read: (index) => {
        read.push(index);
        return Promise.resolve(undefined);
      },
    });
    expect(await ahead.next(0)).toBe(false);
    expect(await ahead.next(1)).toBe(true);
    expect(read).toEqual([MAX_AHEAD + 1]);
  });
});
