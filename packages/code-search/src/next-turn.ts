/** Resolves on the next turn of the event loop, once the callbacks waiting for one have run. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
