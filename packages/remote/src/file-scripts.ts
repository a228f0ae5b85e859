/** The one-file helpers of the script workspace: POSIX sh run with the paths as arguments. */

/**
 * Writes stdin to `$1` atomically: a temp file `$2` in the target's folder, mode `$3` (else the target's), flushed
 * when `$4` is set (its folder too unless `$5` is set), then renamed over the target.
 */
export const WRITE_SCRIPT = [
  // Write through symlinks to their target, never replacing the link with a regular file.
  // Resolved from the link's folder: busybox resolves a dangling link's relative target against the working folder.
  't=$1; if [ -L "$t" ]; then t=$(cd -- "${t%/*}/" && readlink -f -- "${t##*/}") && [ -n "$t" ] || exit 2; fi',
  // Parameter expansion and tests are built in: each process started costs milliseconds on a busy remote.
  'd=${t%/*}; d=${d:-/}; [ -d "$d" ] || mkdir -p -- "$d" || exit 20',
  '[ -d "$t" ] && exit 21',
  'tmp="$d/$2"',
  'cat > "$tmp" || { rm -f -- "$tmp"; exit 1; }',
  'if [ -n "$3" ]; then chmod "$3" "$tmp"; elif [ -e "$t" ]; then chmod "$(stat -L -c %a -- "$t")" "$tmp"; fi',
  // Durable: the data is flushed before the rename and the folder entry after it (every file when sync takes none).
  '[ -z "$4" ] || sync "$tmp" 2>/dev/null || sync',
  'mv -f -- "$tmp" "$t" || { rm -f -- "$tmp"; exit 1; }',
  '[ -z "$4" ] || [ -n "$5" ] || sync "$d" 2>/dev/null || sync',
].join('\n');

/** Flushes the folder a write of each path lands in (its target's, for a symlink), each once. */
export const SYNC_FOLDERS_SCRIPT = [
  'for p; do t=$p; [ -L "$t" ] && t=$(cd -- "${t%/*}/" && readlink -f -- "${t##*/}"); d=${t%/*}; printf \'%s\\n\' "${d:-/}"; done |',
  'sort -u | while IFS= read -r d; do',
  '  [ -d "$d" ] || continue',
  '  sync "$d" 2>/dev/null || { sync; exit 0; }',
  'done',
].join('\n');

/** Hard-links `$1` as `$2` (2: `$1` is missing, 17: `$2` is taken); ln links a symlink itself, never its target. */
export const LINK_SCRIPT = '{ [ -e "$1" ] || [ -L "$1" ]; } || exit 2\n{ [ -e "$2" ] || [ -L "$2" ]; } && exit 17\nexec ln -- "$1" "$2"';

/** Removes the file or symlink `$1` (2: missing, 21: a folder). */
export const REMOVE_SCRIPT = '[ -e "$1" ] || [ -L "$1" ] || exit 2\n[ -d "$1" ] && [ ! -L "$1" ] && exit 21\nexec rm -f -- "$1"';
