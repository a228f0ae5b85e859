/** Something whose output can be paused and resumed. */
export interface Pausable {
  pause(): void;
  resume(): void;
}

/**
 * Shares one process's pause/resume among several holders (the terminal renderer, the spool): the process is paused
 * while any holder has it paused, and resumed when the last one lets go. Each holder must balance its own calls.
 */
export function createFlowControl(target: Pausable): Pausable {
  let holders = 0;
  return {
    pause() {
      if (holders++ === 0) target.pause();
    },
    resume() {
      if (holders === 0) return;
      if (--holders === 0) target.resume();
    },
  };
}
