import { ToolHostError } from '@toolhost/core';
import type { CatalogEntry } from './catalog-entry.js';

/** Tool names every provider accepts (OpenAI, Anthropic and MCP clients): letters, digits, `_` and `-`. */
const NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** Throws `invalid_options` for a malformed entry, `duplicate_tool` for a name `isRegistered` already holds. */
export function checkCatalogEntry(entry: CatalogEntry, isRegistered: (name: string) => boolean): void {
  if (!entry || typeof entry !== 'object') throw new ToolHostError('invalid_options', 'catalog entry must be an object');
  if (typeof entry.name !== 'string' || !NAME.test(entry.name)) {
    throw new ToolHostError('invalid_options', `catalog entry name ${JSON.stringify(entry.name)} must match ${NAME}`);
  }
  if (isRegistered(entry.name)) throw new ToolHostError('duplicate_tool', `catalog entry ${entry.name} is already registered`);
  if (typeof entry.description !== 'string') throw new ToolHostError('invalid_options', `catalog entry ${entry.name} needs a description`);
  if (typeof entry.handler !== 'function')
    throw new ToolHostError('invalid_options', `catalog entry ${entry.name} needs a handler function`);
  if (!entry.inputSchema || typeof entry.inputSchema !== 'object')
    throw new ToolHostError('invalid_options', `catalog entry ${entry.name} needs an inputSchema object`);
  if (entry.tags !== undefined && (!Array.isArray(entry.tags) || entry.tags.some((tag) => typeof tag !== 'string'))) {
    throw new ToolHostError('invalid_options', `catalog entry ${entry.name} tags must be an array of strings`);
  }
}
