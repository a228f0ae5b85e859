export type { Executor, ExecProcess, ProcessExit, SpawnRequest } from '@toolhost/core';

/** Maps a signal name to the shell convention 128 + its number. */
export function signalExitCode(signalNumber: number): number {
  return 128 + signalNumber;
}
