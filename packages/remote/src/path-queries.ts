import { gatherCalls } from './gather-calls.js';
import type { ScriptRunner } from './script-runner.js';

/**
 * A helper asking one command about many paths in one process: a shell loop (built-ins only) keeps the paths for
 * which `present` holds and prints a line of `1`/`0` flags, then `command` runs once on the kept paths (absolute, so
 * none reads as an option) and prints one line for each.
 */
export function pathQueryScript(present: string, command: string): string {
  return [
    'flags=',
    `for p; do if ${present}; then flags="\${flags}1"; set -- "$@" "$p"; else flags="\${flags}0"; fi; shift; done`,
    `printf '%s\\n' "$flags"`,
    `[ $# -eq 0 ] || exec ${command} "$@"`,
  ].join('\n');
}

/**
 * Asks `script` (a {@link pathQueryScript}) about `paths` and parses each kept path's line; undefined for a path that
 * was not kept. Returns undefined when the answer cannot be trusted line for line (the command failed for one, or a
 * name held a line break), so the caller asks path by path.
 */
export async function queryPaths<T>(
  run: ScriptRunner,
  script: string,
  paths: readonly string[],
  parse: (line: string) => T,
): Promise<Array<T | undefined> | undefined> {
  const outcome = await run(script, [...paths]);
  if (outcome.exitCode !== 0) return undefined;
  const [flags = '', ...lines] = outcome.stdout.toString('utf8').replace(/\n$/, '').split('\n');
  const kept = [...flags].filter((flag) => flag === '1').length;
  if (flags.length !== paths.length || lines.length !== kept || (kept === 0 && lines.length > 0)) return undefined;
  let line = 0;
  return [...flags].map((flag) => (flag === '1' ? parse(lines[line++]!) : undefined));
}

/**
 * {@link gatherCalls} for questions about paths, which are safe to ask again: when `many` fails, each path is asked
 * on its own.
 */
export function gatherPathQueries<T>(
  many: (paths: readonly string[]) => Promise<T[] | undefined>,
  one: (path: string) => Promise<T>,
): (path: string) => Promise<T> {
  return gatherCalls((paths: readonly string[]) => many(paths).catch(() => undefined), one);
}
