import { languageOfPath } from './language-table.js';

/**
 * The order the index builds in: files grouped by grammar, the groups with the most files first (files no grammar parses
 * form one group), walk order kept within a group.
 *
 * The first parse of a grammar sets off V8's optimising compile of its lexer on a background thread, which takes a core for
 * as long as it runs: 0.3-0.7 s of CPU for the C, C++ and Bash grammars, whose lexers are 40-160 KB of wasm. A handful of
 * shell scripts or C files met early in the walk of a Rust or Go tree thus slowed the searches of the build's first
 * seconds; built last, they set their compile off once the languages a search most likely asks about are indexed.
 */
export function buildOrder(paths: readonly string[]): string[] {
  const groups = new Map<string, string[]>();
  for (const path of paths) {
    const grammar = languageOfPath(path)?.grammar ?? '';
    let group = groups.get(grammar);
    if (!group) groups.set(grammar, (group = []));
    group.push(path);
  }
  // Map order is first-seen order, and sort is stable: groups of equal size keep the order the walk met them in.
  return [...groups.values()].sort((a, b) => b.length - a.length).flat();
}
