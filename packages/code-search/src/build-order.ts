import { languageOfPath } from './language-table.js';

/**
 * The order the index builds in: files grouped by grammar, the groups with the most files first (files no grammar parses
 * form one group), walk order kept within a group. A grammar's first parse sets V8 compiling its lexer on a core of its
 * own, so the rare grammars come last, once the languages a search most likely asks about are indexed.
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
