/** The highest SHLVL bash takes as it is: from 999 on, bash warns "shell level too high" and resets it to 1. */
const HIGHEST_SHELL_LEVEL = 998;

/**
 * The SHLVL a command starts with: `value` when it is a whole number from 1 to 998, else `1`. bash reads ~/.bashrc
 * when its input is a socket (as with pipes) and its own level, SHLVL plus one, is below 2; a missing, empty,
 * non-numeric, zero or negative SHLVL counts as 0, and one of 999 or more is reset to 1, so each of them would run
 * the user's startup file before every command.
 */
export function commandShellLevel(value: string | undefined): string {
  if (value !== undefined && /^[1-9][0-9]*$/.test(value) && Number(value) <= HIGHEST_SHELL_LEVEL) return value;
  return '1';
}
