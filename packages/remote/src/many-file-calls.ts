import { inputArchive } from './input-archive.js';
import { LINK_MANY_SCRIPT, REMOVE_MANY_SCRIPT, WRITE_MANY_SCRIPT } from './many-file-scripts.js';
import { newTrailerMarker, type ScriptOutcome, type ScriptRunner } from './script-runner.js';
import { batchInputsUnsaved, splitBatchOutput } from './script-steps.js';

/** One write of {@link writeMany}: the arguments of the one-file write helper (target first) and the bytes. */
export interface WriteRequest {
  args: string[];
  data: Uint8Array;
}

function repeats(paths: readonly string[]): boolean {
  return new Set(paths).size !== paths.length;
}

const LOST = 'the helper ended before this file (the remote may have stopped)';

/**
 * Writes many files in one process started for them (`runProcess` hands it its input raw), an outcome each; undefined
 * when the remote could not unpack the bytes (no `tar` or no temporary folder), so each is written on its own.
 */
export async function writeMany(runProcess: ScriptRunner, requests: readonly WriteRequest[]): Promise<ScriptOutcome[] | undefined> {
  // A path written twice must see its first write (its mode); that order is kept by writing each on its own.
  if (repeats(requests.map((request) => request.args[0]!))) return undefined;
  const marker = newTrailerMarker();
  const args = [marker, ...requests.flatMap((request) => request.args)];
  const outcome = await runProcess(WRITE_MANY_SCRIPT, args, inputArchive(requests.map((request) => request.data)));
  if (batchInputsUnsaved(outcome.stdout, marker)) return undefined;
  return splitBatchOutput(outcome.stdout, outcome.stderr, marker, requests.length, outcome.stderr || LOST);
}

/**
 * Removes many files or symlinks with one helper, an outcome each (2: missing, 21: a folder, 1: still there);
 * undefined when a path is named twice (the second removal must find it gone, so each goes on its own).
 */
export async function removeMany(run: ScriptRunner, paths: readonly string[]): Promise<ScriptOutcome[] | undefined> {
  if (repeats(paths)) return undefined;
  const marker = newTrailerMarker();
  const outcome = await run(REMOVE_MANY_SCRIPT, [marker, ...paths]);
  return splitBatchOutput(outcome.stdout, outcome.stderr, marker, paths.length, outcome.stderr || LOST);
}

/**
 * Hard-links many files with one helper, each link made after the one before it, an outcome each (2: the existing one
 * is missing, 17: the name is taken).
 */
export async function linkMany(run: ScriptRunner, pairs: ReadonlyArray<readonly [string, string]>): Promise<ScriptOutcome[]> {
  const marker = newTrailerMarker();
  const outcome = await run(LINK_MANY_SCRIPT, [marker, ...pairs.flat()]);
  return splitBatchOutput(outcome.stdout, outcome.stderr, marker, pairs.length, outcome.stderr || LOST);
}
