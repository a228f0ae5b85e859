/**
 * Shell programs doing one file operation on many files in one process: the loop, tests and bookkeeping are shell
 * built-ins, so a file costs the one command that does the work (and a batch no process start of its own for each).
 * Each prints `<marker><index>:<exit code>` for every file in order on stdout (exit codes as the one-file helpers give
 * them) and, when it kept them, each file's errors followed by `\n<marker><index>\n` on stderr.
 */

/**
 * Writes many files atomically. Arguments: the marker, then six per file: target (absolute), temp name, mode (empty:
 * keep the target's), durable (non-empty: flush the data before the rename and the folder after it), deferred folder
 * flush (non-empty: the caller flushes the folder) and temp folder (non-empty: the temp is a folder of the temp name
 * holding the file under the target's name). Input: a tar holding each file's bytes under its temp path beside its
 * target as given (`<target's folder>/<temp name>`, or `…/<temp name>/<target's name>`, without the leading `/`; see
 * {@link writeArchiveName}), so one `tar` writes every temp file in place; a temp file unpacked beside a symlink is
 * then copied beside the link's target. When `tar` is missing or fails, prints `<marker>inputs`, removes what it
 * unpacked and renames nothing. The temp files get their modes (one chmod per mode) and are flushed together; then
 * those in temp folders are moved into their folder by one `mv` a folder, the others renamed one by one.
 */
export const WRITE_MANY_SCRIPT = [
  'm=$1; shift',
  'command -v tar >/dev/null 2>&1 || { printf \'%sinputs\\n\' "$m"; exit 0; }',
  'n=0',
  'while [ $# -ge 6 ]; do',
  '  t=$1; x="${t%/*}/$2"; g=$6; [ -z "$g" ] || x="$x/${t##*/}"; s=0; p=; e=',
  // Write through symlinks to their target, never replacing the link with a regular file.
  // Resolved from the link's folder: busybox resolves a dangling link's relative target against the working folder.
  '  if [ -L "$t" ]; then',
  '    if r=$( { cd -- "${t%/*}/" && readlink -f -- "${t##*/}"; } 2>/dev/null) && [ -n "$r" ]; then t=$r',
  '    else s=2; e=$( { cd -- "${t%/*}/" && readlink -f -- "${t##*/}" >/dev/null; } 2>&1); fi',
  '  fi',
  '  d=${t%/*}; d=${d:-/}',
  '  if [ "$s" != 0 ]; then :',
  '  elif [ ! -d "$d" ] && ! e=$(mkdir -p -- "$d" 2>&1); then s=20',
  '  elif [ -d "$t" ]; then s=21',
  '  elif [ "$t" = "$1" ]; then p=$x',
  '  elif [ -n "$g" ]; then p="$d/$2/${t##*/}"',
  '  else p="$d/$2"',
  '  fi',
  '  eval "t$n=\\$t; d$n=\\$d; p$n=\\$p; x$n=\\$x; s$n=\\$s; e$n=\\$e; c$n=\\$3; u$n=\\$4; f$n=\\$5; g$n=\\$g; r$n="',
  '  n=$((n + 1)); shift 6',
  'done',
  // One tar unpacks the temp files of the files still to write, and only those.
  'set --; i=0',
  'while [ $i -lt $n ]; do eval "[ \\$s$i != 0 ] || set -- \\"\\$@\\" \\"\\${x$i#/}\\""; i=$((i + 1)); done',
  'if [ $# -gt 0 ] && ! tar -xmof - -C / "$@" 2>/dev/null; then',
  '  i=0; set --',
  '  while [ $i -lt $n ]; do eval "[ \\$s$i != 0 ] || set -- \\"\\$@\\" \\"\\$x$i\\""; i=$((i + 1)); done',
  '  rm -f -- "$@"',
  '  i=0; set --',
  '  while [ $i -lt $n ]; do eval "[ \\$s$i != 0 ] || [ -z \\"\\$g$i\\" ] || set -- \\"\\$@\\" \\"\\${x$i%/*}\\""; i=$((i + 1)); done',
  '  [ $# -eq 0 ] || rmdir -- "$@" 2>/dev/null',
  '  printf \'%sinputs\\n\' "$m"; exit 0',
  'fi',
  // A temp file unpacked beside a symlink moves beside the link's target, where the rename is.
  'i=0',
  'while [ $i -lt $n ]; do',
  '  eval "s=\\$s$i; p=\\$p$i; x=\\$x$i; g=\\$g$i"',
  '  if [ "$s" = 0 ] && [ "$p" != "$x" ]; then',
  '    e=$( { { [ -z "$g" ] || [ -d "${p%/*}" ] || mkdir -- "${p%/*}"; } && cat -- "$x" >"$p"; } 2>&1) ||',
  '      { rm -f -- "$p"; [ -z "$g" ] || rmdir -- "${p%/*}" 2>/dev/null; eval "s$i=1; e$i=\\$e"; }',
  '    rm -f -- "$x"; [ -z "$g" ] || [ "${x%/*}" = "${p%/*}" ] || rmdir -- "${x%/*}" 2>/dev/null',
  '  fi',
  '  i=$((i + 1))',
  'done',
  // The modes of the targets kept (one stat for all), a new file's otherwise, then one chmod per mode.
  'set --; i=0',
  'while [ $i -lt $n ]; do eval "[ \\$s$i = 0 ] && [ -z \\"\\$c$i\\" ] && [ -e \\"\\$t$i\\" ] && k$i=1 && set -- \\"\\$@\\" \\"\\$t$i\\""; i=$((i + 1)); done',
  'if [ $# -gt 0 ]; then',
  '  modes=$(stat -L -c %a -- "$@" 2>/dev/null) || modes=',
  '  set -- $modes; i=0',
  '  while [ $i -lt $n ]; do',
  '    eval "[ -n \\"\\$k$i\\" ]" && {',
  '      if [ $# -gt 0 ]; then eval "c$i=\\$1"; shift; else eval "c$i=\\$(stat -L -c %a -- \\"\\$t$i\\" 2>/dev/null)"; fi',
  '    }',
  '    i=$((i + 1))',
  '  done',
  'fi',
  'k=$(umask); fresh=$(printf %o $((0666 & ~0$k)))',
  'i=0',
  'while [ $i -lt $n ]; do eval "[ -n \\"\\$c$i\\" ] || c$i=\\$fresh"; i=$((i + 1)); done',
  'seen=" "; i=0',
  'while [ $i -lt $n ]; do',
  '  eval "s=\\$s$i; c=\\$c$i"',
  '  if [ "$s" = 0 ]; then case $seen in *" $c "*) ;; *)',
  '    seen="$seen$c "; set --; j=$i',
  '    while [ $j -lt $n ]; do eval "[ \\$s$j = 0 ] && [ \\"\\$c$j\\" = \\"\\$c\\" ] && set -- \\"\\$@\\" \\"\\$p$j\\""; j=$((j + 1)); done',
  '    chmod "$c" "$@" 2>/dev/null || for q; do chmod "$c" "$q" 2>/dev/null || { rm -f -- "$q"; j=0; while [ $j -lt $n ]; do eval "[ \\"\\$p$j\\" = \\"\\$q\\" ] && s$j=1"; j=$((j + 1)); done; }; done',
  '  ;; esac; fi',
  '  i=$((i + 1))',
  'done',
  // Durable: the data of every temp file is on disk before the first rename (every file when sync takes none).
  'set --; i=0',
  'while [ $i -lt $n ]; do eval "[ \\$s$i = 0 ] && [ -n \\"\\$u$i\\" ] && set -- \\"\\$@\\" \\"\\$p$i\\""; i=$((i + 1)); done',
  '[ $# -eq 0 ] || sync "$@" 2>/dev/null || sync',
  // Temp files in temp folders go into their folder with one mv a folder (a rename each); one still there failed.
  'i=0',
  'while [ $i -lt $n ]; do',
  '  eval "s=\\$s$i; g=\\$g$i; d=\\$d$i; r=\\$r$i"',
  '  if [ "$s" = 0 ] && [ -n "$g" ] && [ -z "$r" ]; then',
  '    set --; j=$i',
  '    while [ $j -lt $n ]; do eval "[ \\$s$j = 0 ] && [ -n \\"\\$g$j\\" ] && [ \\"\\$d$j\\" = \\"\\$d\\" ] && r$j=1 && set -- \\"\\$@\\" \\"\\$p$j\\""; j=$((j + 1)); done',
  '    e=$(mv -f -- "$@" "$d/" 2>&1)',
  '    for q; do',
  '      { [ -e "$q" ] || [ -L "$q" ]; } || continue',
  '      rm -f -- "$q"; j=0',
  '      while [ $j -lt $n ]; do eval "[ \\"\\$p$j\\" = \\"\\$q\\" ] && s$j=1 && e$j=\\${e:-the rename failed}"; j=$((j + 1)); done',
  '    done',
  '    for q; do set -- "$@" "${q%/*}"; shift; done',
  '    rmdir -- "$@" 2>/dev/null',
  '  fi',
  '  i=$((i + 1))',
  'done',
  'i=0',
  'while [ $i -lt $n ]; do',
  '  eval "s=\\$s$i; p=\\$p$i; t=\\$t$i; d=\\$d$i; u=\\$u$i; f=\\$f$i; e=\\$e$i; g=\\$g$i"',
  '  if [ "$s" = 0 ]; then',
  // A failed rename's message goes straight to stderr, before this file's marker.
  '    [ -n "$g" ] || mv -f -- "$p" "$t" || { rm -f -- "$p"; s=1; }',
  '    [ "$s" != 0 ] || [ -z "$u" ] || [ -n "$f" ] || sync "$d" 2>/dev/null || sync',
  '  elif [ -n "$p" ]; then rm -f -- "$p"',
  '  fi',
  '  printf \'%s%d:%d\\n\' "$m" $i $s',
  '  [ "$s" = 0 ] || [ -z "$e" ] || printf \'%s\\n\' "$e" >&2',
  '  printf \'\\n%s%d\\n\' "$m" $i >&2',
  '  i=$((i + 1))',
  'done',
].join('\n');

/**
 * The name a file written by {@link WRITE_MANY_SCRIPT} has in its input tar: its temp path beside `target` (absolute),
 * in a temp folder under the target's name when `inFolder`, without the leading `/`.
 */
export function writeArchiveName(target: string, temp: string, inFolder = false): string {
  const slash = target.lastIndexOf('/');
  const beside = `${target.slice(0, slash)}/${temp}`;
  return (inFolder ? `${beside}/${target.slice(slash + 1)}` : beside).replace(/^\//, '');
}

/**
 * Removes many files or symlinks with one rm. Arguments: the marker, then the paths. A path missing gets 2, a folder
 * 21; the rest go to one `rm -f`, then each is looked at again (1: still there).
 */
export const REMOVE_MANY_SCRIPT = [
  'm=$1; shift',
  'n=0',
  'for p; do',
  '  if ! { [ -e "$p" ] || [ -L "$p" ]; }; then s=2',
  '  elif [ -d "$p" ] && [ ! -L "$p" ]; then s=21',
  '  else s=0; set -- "$@" "$p"',
  '  fi',
  '  eval "s$n=\\$s"; n=$((n + 1)); shift',
  'done',
  '[ $# -eq 0 ] || rm -f -- "$@" 2>/dev/null',
  'i=0',
  'while [ $i -lt $n ]; do',
  '  eval "s=\\$s$i"',
  '  if [ "$s" = 0 ]; then { [ -e "$1" ] || [ -L "$1" ]; } && s=1; shift; fi',
  '  printf \'%s%d:%d\\n\' "$m" $i $s',
  '  printf \'\\n%s%d\\n\' "$m" $i >&2',
  '  i=$((i + 1))',
  'done',
].join('\n');

/**
 * Hard-links many files, each with its own `ln`. Arguments: the marker, then two per link: existing, new name. A
 * missing existing gets 2, a new name already there 17.
 */
export const LINK_MANY_SCRIPT = [
  'm=$1; shift',
  'i=0',
  'while [ $# -ge 2 ]; do',
  '  if ! { [ -e "$1" ] || [ -L "$1" ]; }; then s=2',
  '  elif [ -e "$2" ] || [ -L "$2" ]; then s=17',
  '  else ln -- "$1" "$2" 2>/dev/null; s=$?',
  '  fi',
  '  printf \'%s%d:%d\\n\' "$m" $i $s',
  '  printf \'\\n%s%d\\n\' "$m" $i >&2',
  '  i=$((i + 1)); shift 2',
  'done',
].join('\n');

/**
 * Hard-links many files with one `tar`. Arguments: the marker, then two per link: existing, new name (absolute). Input:
 * a tar of hard links, each new name (without its leading `/`) linking its existing one (see `linkArchive`). A missing
 * existing gets 2, a new name already there 17, a folder to link or a missing folder for the new name 1 (as `ln` gives
 * them); the rest are unpacked by one `tar`, and a link it did not make is made by `ln` on its own. Without `tar`,
 * prints `<marker>inputs` and links nothing.
 */
export const LINK_TAR_SCRIPT = [
  'm=$1; shift',
  'command -v tar >/dev/null 2>&1 || { printf \'%sinputs\\n\' "$m"; exit 0; }',
  'n=0',
  'while [ $# -ge 2 ]; do',
  '  d=${2%/*}',
  '  if ! { [ -e "$1" ] || [ -L "$1" ]; }; then s=2',
  '  elif [ -e "$2" ] || [ -L "$2" ]; then s=17',
  '  elif { [ -d "$1" ] && [ ! -L "$1" ]; } || [ ! -d "${d:-/}" ]; then s=1',
  '  else s=0',
  '  fi',
  '  eval "s$n=\\$s; a$n=\\$1; b$n=\\$2"',
  '  n=$((n + 1)); shift 2',
  'done',
  'set --; i=0',
  'while [ $i -lt $n ]; do eval "[ \\$s$i != 0 ] || set -- \\"\\$@\\" \\"\\${b$i#/}\\""; i=$((i + 1)); done',
  '[ $# -eq 0 ] || tar -xkf - -C / "$@" 2>/dev/null',
  'i=0',
  'while [ $i -lt $n ]; do',
  '  eval "s=\\$s$i; a=\\$a$i; b=\\$b$i"',
  // A link tar did not make (it stops at its first error on busybox) is made as the one-file helper makes it.
  '  if [ "$s" = 0 ] && ! { [ "$a" -ef "$b" ] || { [ -L "$a" ] && [ -L "$b" ]; }; }; then',
  '    if [ -e "$b" ] || [ -L "$b" ]; then s=17; else ln -- "$a" "$b" 2>/dev/null; s=$?; fi',
  '  fi',
  '  printf \'%s%d:%d\\n\' "$m" $i $s',
  '  printf \'\\n%s%d\\n\' "$m" $i >&2',
  '  i=$((i + 1))',
  'done',
].join('\n');

/**
 * Reads many regular files with one `cat`. Arguments: the paths. Prints a line for each file (`stat` of size, inode,
 * change and modification times), then every file's bytes one after the other, then the same lines again; the caller
 * cuts the bytes at the sizes and trusts them only when both listings agree. Exits non-zero when a path is no regular
 * file or cannot be read, so each is then read on its own (for its own error).
 */
export const READ_MANY_SCRIPT = [
  'for p; do [ -f "$p" ] || exit 1; done',
  'stat -L -c \'%s %i %Z %Y\' -- "$@" || exit 1',
  'cat -- "$@" || exit 1',
  'exec stat -L -c \'%s %i %Z %Y\' -- "$@"',
].join('\n');
