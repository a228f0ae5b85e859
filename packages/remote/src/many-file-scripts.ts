/**
 * Shell programs doing one file operation on many files in one process: the loop, tests and bookkeeping are shell
 * built-ins, so a file costs the one command that does the work (and a batch no process start of its own for each).
 * Each prints `<marker><index>:<exit code>` for every file in order on stdout (exit codes as the one-file helpers give
 * them) and, when it kept them, each file's errors followed by `\n<marker><index>\n` on stderr.
 */

/**
 * Writes many files atomically. Arguments: the marker, then five per file: target, temp name, mode (empty: keep the
 * target's), durable (non-empty: flush the data before the rename and the folder after it) and deferred folder flush
 * (non-empty: the caller flushes the folder). Input: a tar of the files' bytes named 0, 1, …; when it cannot be
 * unpacked, prints `<marker>inputs` and writes nothing. The temp files are written first, their modes set (one chmod
 * per mode that differs from a new file's), flushed together, then renamed one by one.
 */
export const WRITE_MANY_SCRIPT = [
  'm=$1; shift',
  'in=$(mktemp -d 2>/dev/null) && tar -xf - -C "$in" 2>/dev/null || { [ -z "$in" ] || rm -rf -- "$in"; printf \'%sinputs\\n\' "$m"; exit 0; }',
  'n=0',
  'while [ $# -ge 5 ]; do',
  '  e="$in/e$n"; t=$1; s=0; p=',
  // Write through symlinks to their target, never replacing the link with a regular file.
  // Resolved from the link's folder: busybox resolves a dangling link's relative target against the working folder.
  '  if [ -L "$t" ]; then t=$(cd -- "${t%/*}/" && readlink -f -- "${t##*/}" 2>>"$e") && [ -n "$t" ] || s=2; fi',
  '  d=${t%/*}; d=${d:-/}',
  '  if [ "$s" != 0 ]; then :',
  '  elif ! { [ -d "$d" ] || mkdir -p -- "$d" 2>>"$e"; }; then s=20',
  '  elif [ -d "$t" ]; then s=21',
  '  else p="$d/$2"; cat -- "$in/$n" 2>>"$e" >"$p" || { rm -f -- "$p"; s=1; p=; }',
  '  fi',
  '  eval "t$n=\\$t; d$n=\\$d; p$n=\\$p; s$n=\\$s; c$n=\\$3; u$n=\\$4; f$n=\\$5"',
  '  n=$((n + 1)); shift 5',
  'done',
  // The modes of the targets kept (one stat for all), then one chmod per mode a new file does not already have.
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
  'seen=" $fresh "; i=0',
  'while [ $i -lt $n ]; do',
  '  eval "s=\\$s$i; c=\\$c$i"',
  '  if [ "$s" = 0 ] && [ -n "$c" ]; then case $seen in *" $c "*) ;; *)',
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
  'i=0',
  'while [ $i -lt $n ]; do',
  '  eval "s=\\$s$i; p=\\$p$i; t=\\$t$i; d=\\$d$i; u=\\$u$i; f=\\$f$i"',
  '  if [ "$s" = 0 ]; then',
  '    mv -f -- "$p" "$t" 2>>"$in/e$i" || { rm -f -- "$p"; s=1; }',
  '    [ "$s" != 0 ] || [ -z "$u" ] || [ -n "$f" ] || sync "$d" 2>/dev/null || sync',
  '  elif [ -n "$p" ]; then rm -f -- "$p"',
  '  fi',
  '  printf \'%s%d:%d\\n\' "$m" $i $s',
  '  [ "$s" = 0 ] || [ ! -s "$in/e$i" ] || cat -- "$in/e$i" >&2',
  '  printf \'\\n%s%d\\n\' "$m" $i >&2',
  '  i=$((i + 1))',
  'done',
  'rm -rf -- "$in"',
].join('\n');

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
