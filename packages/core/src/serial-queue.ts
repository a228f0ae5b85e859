/** Runs tasks one at a time, in the order they were handed over; a task that fails does not stop the ones after it. */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  /** Runs `task` once every task handed over before it has settled; resolves or rejects as the task does. */
  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(() => task());
    this.tail = result.catch(() => undefined);
    return result;
  }
}
