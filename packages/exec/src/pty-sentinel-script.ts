import { SENTINEL_PRINTF } from '@toolhost/core';

/**
 * The `/bin/sh` script that runs a command under a PTY and reports its end in-band: it runs the command (`"$@"` after
 * the nonce), prints `ESC ] 777 ; <nonce> ; <status> BEL` to the terminal once the command has exited, then stops itself
 * and so keeps the terminal open until the reader has seen everything before that line. INT, QUIT and TERM are caught
 * (children get the default actions back at exec), so a Ctrl-C or `kill 0` ends the command but not the report.
 */
export const EXIT_SENTINEL_SCRIPT = `n=$1; shift; trap : INT QUIT TERM; "$@"; s=$?; ${SENTINEL_PRINTF} "$n" "$s"; while kill -STOP $$; do :; done`;
