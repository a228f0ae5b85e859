import type { MarkerMatch, SpawnRequest } from '@toolhost/core';
import { SENTINEL_PRINTF } from '@toolhost/core';

/** The variable every process of a command inherits (`TOOLHOST_SESSION=<host id>-<session id>`). */
const MARKER_VARIABLE = 'TOOLHOST_SESSION';

/**
 * POSIX sh that starts a command on a remote: `$1` is the working folder, `$2` the exit sentinel's nonce, `$3` the
 * number of `NAME=value` assignments that follow, then the program and its arguments. It exports the assignments over
 * the remote's own environment and makes the command the leader of its own process group (`setsid` unless this shell
 * leads one already), so a second exec or channel can kill the whole group. Once the command has exited it writes the
 * exit sentinel (read by `ExitSentinelScanner`) to its output, after everything the command wrote: the reader knows the
 * output is complete from the bytes themselves, not from a quiet spell. INT, QUIT and TERM are caught so that a Ctrl-C
 * sent to a terminal ends the command but not the report.
 */
export const REMOTE_START_SCRIPT = [
  'c=$1; r=$2; n=$3; shift 3',
  `report() { ${SENTINEL_PRINTF} "$r" "$1"; exit "$1"; }`,
  'while [ "$n" -gt 0 ]; do export "$1"; shift; n=$((n - 1)); done',
  'cd -- "$c" || report 126',
  'g=$(s=$(cat /proc/$$/stat 2>/dev/null) && set -- ${s##*) } && echo "$3")',
  'trap : INT QUIT TERM',
  'if [ -n "$g" ] && [ "$g" != "$$" ] && command -v setsid >/dev/null 2>&1; then setsid "$@"; else "$@"; fi',
  'report $?',
].join('\n');

/**
 * The argument list after `sh -c REMOTE_START_SCRIPT` that runs `request` (its variables applied over the remote's) and
 * ends its output with the exit sentinel for `nonce`.
 */
export function remoteStartArguments(request: SpawnRequest, nonce: string): string[] {
  const assignments = Object.entries(request.env).map(([name, value]) => `${name}=${value}`);
  return ['toolhost', request.cwd, nonce, String(assignments.length), ...assignments, request.file, ...request.args];
}

/** The variable every helper process of one host inherits (`TOOLHOST_HELPER=<owner>`), so a later host can stop them. */
export const HELPER_VARIABLE = 'TOOLHOST_HELPER';

function markerPattern(match: MarkerMatch, variable = MARKER_VARIABLE): { flags: string; pattern: string } {
  // Markers are hex and digits joined by '-': nothing in them is special to grep.
  return 'exact' in match
    ? { flags: '-x -F', pattern: `${variable}=${match.exact}` }
    : { flags: '', pattern: `^${variable}=${match.prefix}` };
}

function checkMarker(match: MarkerMatch): void {
  const value = 'exact' in match ? match.exact : match.prefix;
  if (!/^[0-9A-Za-z-]+$/.test(value)) throw new Error(`invalid process marker ${JSON.stringify(value)}`);
}

/** POSIX sh that exits 0 while any process carrying a matching marker remains (zombies excluded), 1 otherwise. */
export function remoteFindScript(match: MarkerMatch): string {
  checkMarker(match);
  const { flags, pattern } = markerPattern(match);
  return [
    `for f in $(grep -l -z ${flags} -e '${pattern}' /proc/[0-9]*/environ 2>/dev/null); do`,
    '  p=${f#/proc/}; p=${p%/environ}',
    '  [ "$p" = "$$" ] && continue',
    '  s=$(cat /proc/$p/stat 2>/dev/null) || continue',
    '  set -- ${s##*) }',
    '  [ -n "$1" ] && [ "$1" != Z ] && exit 0',
    'done',
    'exit 1',
  ].join('\n');
}

/**
 * POSIX sh that kills every process carrying a matching marker with SIGKILL, together with the process group each one
 * leads or belongs to, and repeats until none is left (children started meanwhile included), for at most about 3 s.
 */
export function remoteKillScript(match: MarkerMatch): string {
  return killMarkedScript(match, MARKER_VARIABLE, true);
}

/**
 * {@link remoteKillScript} for the processes whose `variable` matches; with `groups` false, each process alone (helpers
 * of a host, {@link HELPER_VARIABLE}, share their group with processes of the transport's that carry no marker).
 */
export function killMarkedScript(match: MarkerMatch, variable: string, groups: boolean): string {
  checkMarker(match);
  const { flags, pattern } = markerPattern(match, variable);
  return [
    'i=0',
    'while [ $i -lt 60 ]; do',
    '  found=',
    `  for f in $(grep -l -z ${flags} -e '${pattern}' /proc/[0-9]*/environ 2>/dev/null); do`,
    '    p=${f#/proc/}; p=${p%/environ}',
    '    [ "$p" = "$$" ] && continue',
    '    s=$(cat /proc/$p/stat 2>/dev/null) || continue',
    '    set -- ${s##*) }',
    '    [ "$1" = Z ] && continue',
    '    found=1',
    // Field 3 after the name is the process group; never signal group 0 or 1 (that would mean every process).
    ...(groups ? ['    [ "$3" -gt 1 ] 2>/dev/null && kill -9 -"$3" 2>/dev/null'] : []),
    '    kill -9 "$p" 2>/dev/null',
    '  done',
    '  [ -z "$found" ] && exit 0',
    '  i=$((i + 1)); sleep 0.05',
    'done',
    'exit 1',
  ].join('\n');
}

/**
 * POSIX sh that runs ripgrep from the folder `$1` with the arguments after it; exits 3 when the remote has no `rg`
 * (then the caller reads the files itself).
 */
export const REMOTE_RIPGREP_SCRIPT = 'cd -- "$1" || exit 2\ncommand -v rg >/dev/null 2>&1 || exit 3\nshift\nexec rg "$@"';
