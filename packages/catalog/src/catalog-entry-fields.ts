import type { CatalogEntry } from './catalog-entry.js';
import { catalogEntrySchema } from './catalog-entry-schema.js';
import type { LexicalFields } from './lexical-index.js';
import { indexTerms } from './search-text.js';

function parameterText(entry: CatalogEntry): string {
  let schema: Record<string, unknown>;
  try {
    schema = catalogEntrySchema(entry);
  } catch {
    return '';
  }
  const properties = schema.properties;
  if (!properties || typeof properties !== 'object') return '';
  const parts: string[] = [];
  for (const [name, property] of Object.entries(properties as Record<string, unknown>)) {
    if (name === 'max_output_tokens') continue;
    parts.push(name);
    const description = (property as { description?: unknown } | null)?.description;
    if (typeof description === 'string') parts.push(description);
  }
  return parts.join('. ');
}

/** Index terms of a description's first sentence (what the tool does) and of the rest (notes, examples). */
function descriptionFields(description: string): { summary: string[]; details: string[] } {
  const text = description.trim();
  // The first ". " (or "!", "?", a line break) that does not end an abbreviation such as "e.g.".
  const end = /(?<!\b(?:e\.g|i\.e|etc|vs|approx))[.!?](\s|$)|\n/.exec(text);
  const cut = end ? end.index + 1 : text.length;
  return { summary: indexTerms(text.slice(0, cut)), details: indexTerms(text.slice(cut)) };
}

/** The index terms of an entry's fields: its name, description, parameters and tags. */
export function catalogEntryFields(entry: CatalogEntry): LexicalFields {
  return {
    name: indexTerms(entry.name),
    ...descriptionFields(entry.description),
    parameters: indexTerms(parameterText(entry)),
    tags: indexTerms((entry.tags ?? []).join(', ')),
  };
}
