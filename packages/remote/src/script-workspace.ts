import {
  joinFileBytes,
  parseRipgrepFileList,
  ripgrepFileListArguments,
  type Workspace,
  type WorkspaceDirEntry,
  type WorkspaceEntryKind,
  type WorkspaceRealPath,
  type WorkspaceStat,
} from '@toolhost/core';
import { REMOTE_RIPGREP_SCRIPT } from './remote-scripts.js';
import { LINK_SCRIPT, REMOVE_SCRIPT, SYNC_FOLDERS_SCRIPT, WRITE_SCRIPT } from './file-scripts.js';
import { linkMany, readMany, removeMany, writeMany, type WriteRequest } from './many-file-calls.js';
import { gatherCalls } from './gather-calls.js';
import { gatherPathQueries, pathQueryScript, queryPaths } from './path-queries.js';
import { coalescingScriptRunner } from './script-coalescer.js';
import type { ScriptOutcome, ScriptRunner } from './script-runner.js';
import type { ScriptBatchRunner } from './script-steps.js';

/** Exit codes the helpers use for the errno they ran into. */
const ERRNO_BY_EXIT: Record<number, string> = { 2: 'ENOENT', 17: 'EEXIST', 20: 'ENOTDIR', 21: 'EISDIR', 39: 'ENOTEMPTY' };

const STAT_FORMAT = '%F|%s|%Y|%a';

function kindOf(type: string): WorkspaceEntryKind {
  if (type === 'regular file' || type === 'regular empty file') return 'file';
  if (type === 'directory') return 'directory';
  if (type === 'symbolic link') return 'symlink';
  return 'other';
}

function parseStat(line: string): WorkspaceStat {
  const [type = '', size = '0', mtime = '0', mode = '0'] = line.trim().split('|');
  return { kind: kindOf(type), size: Number(size), mtimeMs: Number(mtime) * 1000, mode: parseInt(mode, 8) };
}

function failure(operation: string, path: string, outcome: ScriptOutcome): Error {
  const code = ERRNO_BY_EXIT[outcome.exitCode] ?? 'EIO';
  const detail = outcome.stderr.trim() || `exit code ${outcome.exitCode}`;
  return Object.assign(new Error(`${operation} ${path}: ${code} (${detail})`), { code });
}

/** Options of {@link createScriptWorkspace}. */
export interface ScriptWorkspaceOptions {
  /**
   * Runs several helpers in one remote process; with it, the operations asked for together (a patch's reads, its
   * writes) go as one batch, and callers are told to ask for many at once.
   */
  runBatch?: ScriptBatchRunner;
  /**
   * Runs a helper with its input handed over raw (a helper shell that takes raw input, else a process of its own); with
   * `runBatch`, the files written together go to one such helper (one tar unpacking their temp files in place, then
   * one `mv` a folder for temps in temp folders, a rename a file for the others), and so do the backups linked
   * together (one tar of hard links).
   */
  runProcess?: ScriptRunner;
  /** Flush durable writes and folders (default true); without, a commit survives the host's crash, not the remote's. */
  flush?: boolean;
}

/** How many operations at once a batching script workspace asks its callers for: a patch's files in one batch. */
const BATCHED_CONCURRENCY = 64;

/**
 * The helpers that change files, each gathering the calls made together into one helper when `gathered` (writes only
 * with `runProcess`, which hands the bytes over raw).
 */
function changeCalls(run: ScriptRunner, abs: (path: string) => string, runProcess: ScriptRunner | undefined, gathered: boolean) {
  const writeOne = (request: WriteRequest) => run(WRITE_SCRIPT, request.args, joinFileBytes(request.data));
  // A write made alone takes the many-file helper too: its temp file is unpacked in place, fewer commands than one.
  const writeAlone = (process: ScriptRunner) => async (request: WriteRequest) =>
    (await writeMany(process, [request]))?.[0] ?? writeOne(request);
  const write =
    gathered && runProcess
      ? gatherCalls((requests: readonly WriteRequest[]) => writeMany(runProcess, requests), writeAlone(runProcess))
      : writeOne;
  const linkOne = ([existing, path]: readonly [string, string]) => run(LINK_SCRIPT, [abs(existing), abs(path)]);
  const link = gathered
    ? gatherCalls(
        (pairs: ReadonlyArray<readonly [string, string]>) =>
          linkMany(
            run,
            pairs.map(([from, to]) => [abs(from), abs(to)] as const),
            runProcess,
          ),
        linkOne,
      )
    : linkOne;
  const removeOne = (path: string) => run(REMOVE_SCRIPT, [abs(path)]);
  const remove = gathered ? gatherCalls((paths: readonly string[]) => removeMany(run, paths.map(abs)), removeOne) : removeOne;
  return { write, link, remove };
}

/**
 * A workspace on a remote reached only by running commands (busybox or coreutils): every operation is one small sh
 * helper; writes go to a temporary file in the same folder, then `mv` over the target (atomic inside the remote); with
 * `rename`, `link` and durable writes a journaled commit survives the host's crash.
 */
export function createScriptWorkspace(
  root: string,
  realRoot: string,
  runOne: ScriptRunner,
  options: ScriptWorkspaceOptions = {},
): Workspace {
  const run = options.runBatch ? coalescingScriptRunner(runOne, options.runBatch) : runOne;
  const abs = (path: string) => (path ? `${root.replace(/\/+$/, '')}/${path}` : root);
  const realPrefix = realRoot === '/' ? '/' : `${realRoot}/`;
  const expect = async (operation: string, path: string, script: string, args: string[], input?: Uint8Array): Promise<ScriptOutcome> => {
    const outcome = await run(script, args, input);
    if (outcome.exitCode !== 0) throw failure(operation, path, outcome);
    return outcome;
  };
  const statWith = async (flags: string, path: string) => {
    const outcome = await run(`[ -e "$1" ] || [ -L "$1" ] || exit 2\nexec stat ${flags} -c '${STAT_FORMAT}' -- "$1"`, [abs(path)]);
    if (outcome.exitCode === 2 || (flags === '-L' && outcome.exitCode !== 0)) return undefined;
    if (outcome.exitCode !== 0) throw failure('stat', path, outcome);
    return parseStat(outcome.stdout.toString('utf8'));
  };
  const relative = (real: string): WorkspaceRealPath => {
    if (real === realRoot) return { inside: true, path: '' };
    if (real.startsWith(realPrefix)) return { inside: true, path: real.slice(realPrefix.length) };
    return { inside: false, path: real };
  };
  const realpathOne = async (path: string) => {
    const outcome = await run('[ -e "$1" ] || exit 2\nexec readlink -f -- "$1"', [abs(path)]);
    if (outcome.exitCode !== 0) return undefined;
    return relative(outcome.stdout.toString('utf8').replace(/\n$/, ''));
  };
  const readOne = async (path: string): Promise<Uint8Array> =>
    (await expect('read', path, '[ -e "$1" ] || exit 2\n[ -d "$1" ] && exit 21\nexec cat -- "$1"', [abs(path)])).stdout;
  const lstatOne = (path: string) => statWith('', path);
  const statOne = (path: string) => statWith('-L', path);
  // Batching: the paths asked about together go to one process (stat and realpath take many paths).
  const many = <T>(present: string, command: string, parse: (line: string) => T) => {
    const script = pathQueryScript(present, command);
    return (paths: readonly string[]) => queryPaths(run, script, paths.map(abs), parse);
  };
  const gathered = options.runBatch !== undefined;
  const flush = options.flush ?? true;
  const { write, link, remove } = changeCalls(run, abs, gathered ? options.runProcess : undefined, gathered);
  return {
    root,
    onDisk: true,
    ...(gathered ? { concurrency: BATCHED_CONCURRENCY } : {}),
    lstat: gathered ? gatherPathQueries(many('[ -e "$p" ] || [ -L "$p" ]', `stat -c '${STAT_FORMAT}' --`, parseStat), lstatOne) : lstatOne,
    stat: gathered ? gatherPathQueries(many('[ -e "$p" ]', `stat -L -c '${STAT_FORMAT}' --`, parseStat), statOne) : statOne,
    realpath: gathered ? gatherPathQueries(many('[ -e "$p" ]', 'realpath', relative), realpathOne) : realpathOne,
    readFile: gathered ? gatherPathQueries((paths) => readMany(run, paths.map(abs)), readOne) : readOne,
    async writeFile(path, data, options) {
      const temp = options?.tempName ?? `.${Math.random().toString(16).slice(2, 14)}.toolhost.tmp`;
      const mode = options?.mode === undefined ? '' : (options.mode & 0o7777).toString(8);
      const durable = flush && options?.durable ? '1' : '';
      const args = [abs(path), temp, mode, durable, options?.deferFolderSync ? '1' : ''];
      const outcome = await write({ args, data, ...(options?.tempFolder && options.tempName ? { tempFolder: true } : {}) });
      if (outcome.exitCode !== 0) throw failure('write', path, outcome);
    },
    async syncFolders(paths) {
      if (!flush) return;
      await expect('sync', paths[0] ?? '', SYNC_FOLDERS_SCRIPT, paths.map(abs));
    },
    async rename(from, to) {
      // mv would move a file into a folder at `to`; rename(2) refuses that, and so does this.
      const script = '{ [ -e "$1" ] || [ -L "$1" ]; } || exit 2\n[ -d "$2" ] && [ ! -L "$2" ] && exit 21\nexec mv -f -- "$1" "$2"';
      await expect('rename', from, script, [abs(from), abs(to)]);
    },
    async link(existing, path) {
      const outcome = await link([existing, path]);
      if (outcome.exitCode !== 0) throw failure('link', existing, outcome);
    },
    async remove(path) {
      const outcome = await remove(path);
      if (outcome.exitCode !== 0) throw failure('remove', path, outcome);
    },
    async removeEmptyDirectory(path) {
      await expect('rmdir', path, '[ -d "$1" ] || exit 2\nrmdir -- "$1" 2>/dev/null || exit 39', [abs(path)]);
    },
    async readdir(path): Promise<WorkspaceDirEntry[]> {
      const script = [
        '[ -e "$1" ] || exit 2',
        '[ -d "$1" ] || exit 20',
        'cd -- "$1" || exit 2',
        'for f in * .*; do',
        '  case $f in .|..) continue;; esac',
        '  if [ -L "$f" ]; then k=l; elif [ -d "$f" ]; then k=d; elif [ -f "$f" ]; then k=f; elif [ -e "$f" ]; then k=o; else continue; fi',
        '  printf \'%s %s\\0\' "$k" "$f"',
        'done',
      ].join('\n');
      const outcome = await expect('readdir', path, script, [abs(path)]);
      const kinds: Record<string, WorkspaceEntryKind> = { l: 'symlink', d: 'directory', f: 'file', o: 'other' };
      return outcome.stdout
        .toString('utf8')
        .split('\0')
        .filter((entry) => entry.length > 2)
        .map((entry) => ({ kind: kinds[entry[0]!] ?? 'other', name: entry.slice(2) }));
    },
    async readLink(path) {
      const outcome = await expect('readlink', path, '[ -L "$1" ] || exit 2\nreadlink -- "$1"', [abs(path)]);
      return outcome.stdout.toString('utf8').replace(/\n$/, '');
    },
    async createSymlink(path, target) {
      await expect('symlink', path, '{ [ -e "$1" ] || [ -L "$1" ]; } && exit 17\nln -s -- "$2" "$1"', [abs(path), target]);
    },
    async findFilesContaining(query) {
      // ripgrep inside the remote when it has one (0: matches, 1: none); otherwise no opinion, and the files are read here.
      const outcome = await runOne(REMOTE_RIPGREP_SCRIPT, [root, ...ripgrepFileListArguments(query)]).catch(() => undefined);
      if (!outcome || (outcome.exitCode !== 0 && outcome.exitCode !== 1)) return undefined;
      return parseRipgrepFileList(outcome.stdout.toString('utf8'));
    },
  };
}
