import { okResult, type ToolImplementation } from '@toolhost/core';
import { catalogEntrySchema } from './catalog-entry-schema.js';
import type { CatalogMatch } from './catalog-entry.js';
import { searchToolsSchema, type SearchToolsArgs } from './search-tools-schema.js';
import type { ToolCatalog } from './tool-catalog.js';

/** Where a catalog tool stands for the model: callable in this request, loaded for the next one, or not loaded. */
export type ToolAvailability = 'callable' | 'pending' | 'hidden';

/** Options of {@link createSearchToolsTool}. */
export interface SearchToolsOptions {
  catalog: ToolCatalog;
  /** Where a catalog entry stands for the model right now. */
  availability(name: string): ToolAvailability;
  /** Called with the hidden entries a search matched, in rank order; they join the tools at the next request. */
  onMatched(names: string[]): void;
}

const DESCRIPTION_CHARACTERS = 200;

/** The first line of a description, cut at a word boundary if it is long. */
export function oneLineDescription(text: string): string {
  const line = text.trim().split('\n', 1)[0].trim();
  if (line.length <= DESCRIPTION_CHARACTERS) return line;
  const cut = line.slice(0, DESCRIPTION_CHARACTERS);
  const space = cut.lastIndexOf(' ');
  return `${(space > DESCRIPTION_CHARACTERS / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

function formatMatch(match: CatalogMatch, detail: SearchToolsArgs['detail_level']): string {
  const { name, description } = match.entry;
  if (detail === 'name') return name;
  if (detail === 'name_description') return `${name}: ${oneLineDescription(description)}`;
  return `${name}: ${description.trim()}\ninput_schema: ${JSON.stringify(catalogEntrySchema(match.entry))}`;
}

/** Creates the search_tools tool over a catalog. */
export function createSearchToolsTool(options: SearchToolsOptions): ToolImplementation {
  return {
    name: 'search_tools',
    schema: searchToolsSchema,
    async execute(raw) {
      const args = raw as SearchToolsArgs;
      const matches = await options.catalog.find(args.query, args.limit);
      if (matches.length === 0) {
        return okResult(`No tools matched ${JSON.stringify(args.query)}: the catalog is empty.`, { matches: [], expanded: [] });
      }
      const weak = matches.every((match) => match.weak);
      const before = new Map(matches.map((match) => [match.entry.name, options.availability(match.entry.name)]));
      const expanded = matches.filter((match) => before.get(match.entry.name) === 'hidden').map((match) => match.entry.name);
      if (expanded.length) options.onMatched(expanded);
      const next = matches.filter((match) => before.get(match.entry.name) !== 'callable').map((match) => match.entry.name);
      const now = matches.filter((match) => before.get(match.entry.name) === 'callable').map((match) => match.entry.name);

      const lines = matches.map((match) => formatMatch(match, args.detail_level));
      const notes: string[] = [];
      if (next.length) notes.push(`Loaded for your next request (callable from then on): ${next.join(', ')}.`);
      if (now.length) notes.push(`Already callable: ${now.join(', ')}.`);
      const body = lines.join(args.detail_level === 'full' ? '\n\n' : '\n');
      const head = weak
        ? `No tool matched the words of ${JSON.stringify(args.query)}. Nearest by spelling (weak matches: read each description before calling one; ` +
          'or search again with the action and service, e.g. "create jira issue", or an exact tool name):\n'
        : '';
      return okResult(`${head}${body}\n\n${notes.join('\n')}`, {
        matches: matches.map((match) => ({
          name: match.entry.name,
          score: match.score,
          exact: match.exact,
          weak: match.weak,
          available: before.get(match.entry.name) === 'callable' ? 'now' : 'next_request',
        })),
        expanded,
      });
    },
  };
}
