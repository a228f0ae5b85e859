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
  /** Called with the hidden entries a search matched (not weak ones), in rank order; they join the tools at the next request. */
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

/** Heads the matches that are only near spellings of the request's words. */
const WEAK_HEADING = 'Weak matches (not loaded; search the exact name to load one):';

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
      if (matches.length === 0 && options.catalog.list().length === 0) {
        return okResult(`No tools matched ${JSON.stringify(args.query)}: the catalog is empty.`, { matches: [], expanded: [] });
      }
      const before = new Map(matches.map((match) => [match.entry.name, options.availability(match.entry.name)]));
      // Weak matches are guesses: a search loads one only when it names it exactly.
      const availableOf = (match: CatalogMatch) => {
        const status = before.get(match.entry.name);
        if (status === 'callable') return 'now';
        return status === 'pending' || !match.weak ? 'next_request' : 'not_loaded';
      };
      const namesWhere = (test: (match: CatalogMatch) => boolean) => matches.filter(test).map((match) => match.entry.name);
      const expanded = namesWhere((match) => !match.weak && before.get(match.entry.name) === 'hidden');
      if (expanded.length) options.onMatched(expanded);
      const next = namesWhere((match) => availableOf(match) === 'next_request');
      const now = namesWhere((match) => availableOf(match) === 'now');

      const strong = matches.filter((match) => !match.weak);
      const weak = matches.filter((match) => match.weak);
      const sections: string[] = [];
      if (strong.length)
        sections.push(strong.map((match) => formatMatch(match, args.detail_level)).join(args.detail_level === 'full' ? '\n\n' : '\n'));
      else
        sections.push(
          `No tool matched ${JSON.stringify(args.query)}. To search again, name the action and the service, e.g. "create jira issue".`,
        );
      if (weak.length) {
        // Not loaded, so no input schema: one line each.
        const detail = args.detail_level === 'name' ? 'name' : 'name_description';
        sections.push([WEAK_HEADING, ...weak.map((match) => formatMatch(match, detail))].join('\n'));
      }
      const notes: string[] = [];
      if (next.length) notes.push(`Loaded for your next request (callable from then on): ${next.join(', ')}.`);
      if (now.length) notes.push(`Already callable: ${now.join(', ')}.`);
      if (notes.length) sections.push(notes.join('\n'));
      return okResult(sections.join('\n\n'), {
        matches: matches.map((match) => ({
          name: match.entry.name,
          score: match.score,
          exact: match.exact,
          weak: match.weak,
          available: availableOf(match),
        })),
        expanded,
      });
    },
  };
}
