import { okResult, type ToolImplementation } from '@toolhost/core';
import { catalogEntrySchema } from './catalog-entry-schema.js';
import { searchToolsSchema, type SearchToolsArgs } from './search-tools-schema.js';
import type { CatalogEntry } from './catalog-entry.js';
import type { ToolCatalog } from './tool-catalog.js';

/** Options of {@link createSearchToolsTool}. */
export interface SearchToolsOptions {
  catalog: ToolCatalog;
  /** Called with the deferred entries a search matched, in rank order. */
  onMatched(names: string[]): void;
  /** Whether a deferred entry is already visible to the model. */
  isVisible(name: string): boolean;
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0].trim();
}

/** Creates the search_tools tool over a catalog. */
export function createSearchToolsTool(options: SearchToolsOptions): ToolImplementation {
  return {
    name: 'search_tools',
    schema: searchToolsSchema,
    async execute(raw) {
      const args = raw as SearchToolsArgs;
      const matches = options.catalog.search(args.query, args.limit);
      if (matches.length === 0) return okResult(`No tools matched "${args.query}".`, { matches: [], expanded: [] });
      const expanded = matches.filter((m) => m.entry.deferred !== false && !options.isVisible(m.entry.name)).map((m) => m.entry.name);
      options.onMatched(expanded);
      const lines = matches.map((m) => {
        if (args.detail_level === 'name') return m.entry.name;
        if (args.detail_level === 'name_description') return `${m.entry.name}: ${firstLine(m.entry.description)}`;
        return `${m.entry.name}: ${m.entry.description}\ninput_schema: ${JSON.stringify(catalogEntrySchema(m.entry))}`;
      });
      const footer = expanded.length
        ? `\n\nExpanded for the next request: ${expanded.join(', ')}.`
        : '';
      return okResult(lines.join(args.detail_level === 'full' ? '\n\n' : '\n') + footer, {
        matches: matches.map((m) => ({ name: m.entry.name, score: m.score })),
        expanded,
      });
    },
  };
}
