/** Lets scans hold the index build back: the build waits at its next file while any hold is open. */
export interface BuildGate {
  /** Opens a hold; the returned function ends it (called again, it does nothing). A hold ends by itself after the time limit. */
  hold(): () => void;
  /** Resolves once no hold is open, or once it has waited the time limit (holds that follow one another never stop the build). */
  passed(): Promise<void>;
}

/** How long one hold lasts should its end never come, and how long the build waits at most between two files. */
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
      // However many holds follow one another, the build waits at most the limit before its next file.
      const deadline = Date.now() + limitMs;
      while (open) {
        const left = deadline - Date.now();
        if (left <= 0) return;
        let timer: ReturnType<typeof setTimeout> | undefined;
        // Unreferenced: a build waiting here never keeps its thread alive once that thread is done with everything else.
        await Promise.race([open, new Promise<void>((resolve) => (timer = setTimeout(resolve, left)).unref?.())]);
        clearTimeout(timer);
      }
    },
  };
}
