import type { Workspace } from '@toolhost/core';
import { classifyOccurrences, type OccurrenceKind } from './classify-occurrences.js';
import type { SyntaxParser } from './grammar-loader.js';
import type { IndexedFile } from './index-lookups.js';
import type { ParseCache } from './parse-cache.js';
import type { ClassifyFile } from './scan-file.js';
import { SYNTAX_SPECS } from './syntax-spec.js';

/** What classifying a file's occurrences can draw on, cheapest first. */
export interface ClassifierSources {
  readonly workspace: Workspace;
  readonly parser: SyntaxParser;
  readonly cache: ParseCache;
  /** Identifier nodes spelled like the query, from the symbol index, by path. */
  readonly known?: ReadonlyMap<string, IndexedFile>;
}

/**
 * Tells the occurrences of a query of `queryLength` characters apart as definitions, usages or text: from the index's nodes
 * when the file kept their size and mtime, else from a tree cached for that size and mtime, else by parsing (the tree is
 * then cached).
 */
export function createSearchClassifier(sources: ClassifierSources, queryLength: number): ClassifyFile {
  const { workspace, parser, cache, known: knownFiles } = sources;
  return async (path, grammar, text, starts) => {
    const stat = await workspace.lstat(path);
    const known = knownFiles?.get(path);
    if (known?.occurrences && stat && stat.mtimeMs === known.mtimeMs && stat.size === known.size) {
      const byStart = new Map(known.occurrences.map((occurrence) => [occurrence.start, occurrence.definition] as const));
      const kinds = starts.map((start): OccurrenceKind => {
        const definition = byStart.get(start);
        return definition === undefined ? 'text' : definition ? 'definition' : 'usage';
      });
      return { kinds, classifiedBy: 'index' };
    }
    const cached = stat ? cache.get(path, stat.mtimeMs, stat.size) : undefined;
    if (cached) return { kinds: classifyOccurrences(SYNTAX_SPECS[grammar], cached, starts, queryLength), classifiedBy: 'cachedTree' };
    const tree = await parser.parse(grammar, text);
    if (!tree) return {};
    let kinds: OccurrenceKind[];
    try {
      kinds = classifyOccurrences(SYNTAX_SPECS[grammar], tree, starts, queryLength);
    } catch (error) {
      tree.delete();
      throw error;
    }
    if (stat) cache.set(path, stat.mtimeMs, stat.size, tree, text.length);
    else tree.delete();
    return { kinds, classifiedBy: 'parse' };
  };
}
