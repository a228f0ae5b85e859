/** Lets scans hold the index build back: the build waits at its next file while any hold is open. */
export interface BuildGate {
  /** Opens a hold; the returned function ends it (called again, it does nothing). A hold ends by itself after the time limit. */
  hold(): () => void;
  /** Resolves once no hold is open. */
  passed(): Promise<void>;
}

/** How long one hold can keep the build waiting, should its end never come. */
export const BUILD_HOLD_LIMIT_MS = 30_000;

/** Creates a gate with no hold open. */
export function createBuildGate(limitMs = BUILD_HOLD_LIMIT_MS): BuildGate {
  let holds = 0;
  let open: Promise<void> | undefined;
  let release = () => {};
  return {
    hold() {
      holds++;
      open ??= new Promise((resolve) => (release = resolve));
      let ended = false;
      const end = () => {
        if (ended) return;
        ended = true;
        clearTimeout(timer);
        if (--holds === 0) {
          open = undefined;
          release();
        }
      };
      const timer = setTimeout(end, limitMs);
      timer.unref?.();
      return end;
    },
    async passed() {
      while (open) await open;
    },
  };
}
