/** Serializes work on paths: holders of overlapping key sets run one after another, in arrival order. */
export class PathLocks {
  private readonly tails = new Map<string, Promise<void>>();

  /** Waits until every key is free, holds them all, and returns the release function. Never deadlocks: keys are queued at once. */
  async acquire(keys: Iterable<string>): Promise<() => void> {
    const unique = [...new Set(keys)];
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const previous: Promise<void>[] = [];
    for (const key of unique) {
      const tail = this.tails.get(key);
      if (tail) previous.push(tail);
      this.tails.set(key, held);
    }
    await Promise.all(previous);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      for (const key of unique) if (this.tails.get(key) === held) this.tails.delete(key);
      release();
    };
  }

  /** Number of keys currently held or awaited. */
  get size(): number {
    return this.tails.size;
  }
}

/** The lock table shared by every apply_patch tool of this process, so two hosts on one folder serialize too. */
export const sharedPathLocks = new PathLocks();
