import type { MarkerMatch, SpawnRequest } from './environment.js';

/** The variable every process of a command inherits (`TOOLHOST_SESSION=<host id>-<session id>`). */
const MARKER_VARIABLE = 'TOOLHOST_SESSION';

/**
 * POSIX sh that starts a command on a remote: `$1` is the working folder, `$2` the number of `NAME=value` assignments
 * that follow, then the program and its arguments. It exports the assignments over the remote's own environment and
 * makes the command the leader of its own process group (`setsid` unless it leads one already), so a second exec or
 * channel can kill the whole group.
 */
export const REMOTE_START_SCRIPT = [
  'c=$1; n=$2; shift 2',
  'while [ "$n" -gt 0 ]; do export "$1"; shift; n=$((n - 1)); done',
  'cd -- "$c" || exit 126',
  'g=$(s=$(cat /proc/$$/stat 2>/dev/null) && set -- ${s##*) } && echo "$3")',
  'if [ -n "$g" ] && [ "$g" != "$$" ] && command -v setsid >/dev/null 2>&1; then exec setsid "$@"; fi',
  'exec "$@"',
].join('\n');

/** The argument list after `sh -c REMOTE_START_SCRIPT` that runs `request` (its variables applied over the remote's). */
export function remoteStartArguments(request: SpawnRequest): string[] {
  const assignments = Object.entries(request.env).map(([name, value]) => `${name}=${value}`);
  return ['toolhost', request.cwd, String(assignments.length), ...assignments, request.file, ...request.args];
}

function markerPattern(match: MarkerMatch): { flags: string; pattern: string } {
  // Markers are hex and digits joined by '-': nothing in them is special to grep.
  return 'exact' in match ? { flags: '-x -F', pattern: `${MARKER_VARIABLE}=${match.exact}` } : { flags: '', pattern: `^${MARKER_VARIABLE}=${match.prefix}` };
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
  checkMarker(match);
  const { flags, pattern } = markerPattern(match);
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
    '    [ "$3" -gt 1 ] 2>/dev/null && kill -9 -"$3" 2>/dev/null',
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
