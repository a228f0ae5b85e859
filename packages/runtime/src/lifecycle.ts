import { ToolHostError } from '@toolhost/core';

/** Whether the runtime is open, the signal that closing it aborts, and the one guard of every entry point. */
export interface Lifecycle {
  readonly closed: boolean;
  /** Throws `host_closed` once the runtime is closed. */
  assertOpen(): void;
  /** The signal a call runs under: aborted when the runtime closes or when `own` aborts. */
  signal(own?: AbortSignal): AbortSignal;
  /** Marks the runtime closed, aborts every call in flight and runs `release` once; later calls return the same promise. */
  close(release: () => Promise<void>): Promise<void>;
}

/** Creates the lifecycle of one runtime. */
export function createLifecycle(): Lifecycle {
  const abort = new AbortController();
  // Every call in flight listens for the host closing; many concurrent calls are normal, not a leak. (Node only;
  // reached through process.getBuiltinModule so this package imports no Node builtin.)
  const nodeProcess = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const events = nodeProcess?.getBuiltinModule?.('node:events') as
    { setMaxListeners?: (n: number, target: EventTarget) => void } | undefined;
  events?.setMaxListeners?.(0, abort.signal);
  let closed = false;
  let closing: Promise<void> | undefined;
  return {
    get closed() {
      return closed;
    },
    assertOpen() {
      if (closed) throw new ToolHostError('host_closed', 'the tool host is closed');
    },
    signal(own) {
      return own ? AbortSignal.any([abort.signal, own]) : abort.signal;
    },
    close(release) {
      if (!closing) {
        closed = true;
        abort.abort();
        closing = release();
      }
      return closing;
    },
  };
}
