import type { FileBytes } from '@toolhost/core';
import { linkArchive, namedArchive } from './input-archive.js';
import {
  LINK_MANY_SCRIPT,
  LINK_TAR_SCRIPT,
  READ_MANY_SCRIPT,
  REMOVE_MANY_SCRIPT,
  WRITE_MANY_SCRIPT,
  writeArchiveName,
} from './many-file-scripts.js';
import { newTrailerMarker, type ScriptOutcome, type ScriptRunner } from './script-runner.js';
import { batchInputsUnsaved, splitBatchOutput } from './script-steps.js';

/** One write of {@link writeMany}: the arguments of the one-file write helper (target first) and the bytes. */
export interface WriteRequest {
  args: string[];
  data: FileBytes;
  /** The temp may be a folder of the temp name holding the file (see {@link WRITE_MANY_SCRIPT}). */
  tempFolder?: boolean;
}

function repeats(paths: readonly string[]): boolean {
  return new Set(paths).size !== paths.length;
}

const LOST = 'the helper ended before this file (the remote may have stopped)';

/**
 * Writes many files with one helper fed a tar of their temp files, each already at its place (`runProcess` hands the
 * helper its input raw), an outcome each; undefined when they cannot go together (a target named twice or not
 * absolute, a path too long for a plain tar header) or the remote could not unpack them, so each is written on its own.
 */
export async function writeMany(runProcess: ScriptRunner, requests: readonly WriteRequest[]): Promise<ScriptOutcome[] | undefined> {
  // A path written twice must see its first write (its mode); that order is kept by writing each on its own.
  const targets = requests.map((request) => request.args[0]!);
  if (repeats(targets) || targets.some((target) => !target.startsWith('/'))) return undefined;
  const archive = namedArchive(
    requests.map((request) => ({
      path: writeArchiveName(request.args[0]!, request.args[1]!, request.tempFolder),
      file: request.data,
    })),
  );
  if (!archive) return undefined;
  const marker = newTrailerMarker();
  const args = requests.flatMap((request) => [...request.args, request.tempFolder ? '1' : '']);
  const outcome = await runProcess(WRITE_MANY_SCRIPT, [marker, ...args], archive);
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
 * is missing, 17: the name is taken). With `runProcess` (a helper fed its input raw), links that do not depend on each
 * other are made by one `tar` (see {@link LINK_TAR_SCRIPT}), else by one `ln` each.
 */
export async function linkMany(
  run: ScriptRunner,
  pairs: ReadonlyArray<readonly [string, string]>,
  runProcess?: ScriptRunner,
): Promise<ScriptOutcome[]> {
  const marker = newTrailerMarker();
  const args = [marker, ...pairs.flat()];
  const archive =
    runProcess && independent(pairs)
      ? linkArchive(pairs.map(([existing, path]) => ({ path: path.slice(1), existing: existing.slice(1) })))
      : undefined;
  if (runProcess && archive) {
    const outcome = await runProcess(LINK_TAR_SCRIPT, args, archive);
    if (!batchInputsUnsaved(outcome.stdout, marker)) {
      return splitBatchOutput(outcome.stdout, outcome.stderr, marker, pairs.length, outcome.stderr || LOST);
    }
  }
  const outcome = await run(LINK_MANY_SCRIPT, args);
  return splitBatchOutput(outcome.stdout, outcome.stderr, marker, pairs.length, outcome.stderr || LOST);
}

/**
 * True when no link depends on another (no name made twice, none made and linked from) and every path is absolute, so
 * the links can be made in any order by one tar.
 */
function independent(pairs: ReadonlyArray<readonly [string, string]>): boolean {
  const made = new Set(pairs.map(([, path]) => path));
  return (
    made.size === pairs.length && pairs.every(([existing, path]) => existing.startsWith('/') && path.startsWith('/') && !made.has(existing))
  );
}

/** The `count` listing lines starting at `from` of a {@link READ_MANY_SCRIPT} answer and where they end. */
function listing(stdout: Buffer, from: number, count: number): { lines: string[]; end: number } | undefined {
  const lines: string[] = [];
  let at = from;
  for (let index = 0; index < count; index++) {
    const end = stdout.indexOf(0x0a, at);
    if (end < 0) return undefined;
    const line = stdout.toString('latin1', at, end);
    if (!/^\d+ \d+ \d+ \d+$/.test(line)) return undefined;
    lines.push(line);
    at = end + 1;
  }
  return { lines, end: at };
}

/**
 * Reads many files with one helper (one `cat` for all), each file's bytes a view of the one answer; undefined when
 * they cannot be read together or a file changed size, inode or times while they were read, so each is read on its own.
 */
export async function readMany(run: ScriptRunner, paths: readonly string[]): Promise<Uint8Array[] | undefined> {
  const outcome = await run(READ_MANY_SCRIPT, [...paths]);
  if (outcome.exitCode !== 0) return undefined;
  const stdout = outcome.stdout;
  const before = listing(stdout, 0, paths.length);
  if (!before) return undefined;
  const sizes = before.lines.map((line) => Number(line.split(' ')[0]));
  const total = sizes.reduce((sum, size) => sum + size, 0);
  const after = listing(stdout, before.end + total, paths.length);
  if (!after || after.end !== stdout.length || after.lines.some((line, index) => line !== before.lines[index])) return undefined;
  const files: Uint8Array[] = [];
  let at = before.end;
  for (const size of sizes) {
    files.push(stdout.subarray(at, at + size));
    at += size;
  }
  return files;
}
