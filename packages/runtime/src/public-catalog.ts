import { ToolHostError } from '@toolhost/core';
import type { ToolCatalog } from '@toolhost/catalog';
import type { CatalogVisibility } from './catalog-visibility.js';

/**
 * The catalog as callers see it: an entry may not take a reserved name (a built-in or legacy tool; those already in
 * the catalog are checked here), and a removed tool leaves the tool list.
 */
export function createPublicCatalog(
  catalog: ToolCatalog,
  visibility: CatalogVisibility,
  isReserved: (name: string) => boolean,
): ToolCatalog {
  const checkName = (name: unknown) => {
    if (typeof name === 'string' && isReserved(name)) {
      throw new ToolHostError('duplicate_tool', `catalog entry ${name} collides with a built-in or legacy tool name`);
    }
  };
  for (const entry of catalog.list()) checkName(entry.name);
  return {
    add(entry) {
      for (const item of Array.isArray(entry) ? entry : [entry]) checkName(item?.name);
      catalog.add(entry);
    },
    remove(name) {
      const removed = catalog.remove(name);
      visibility.forget(name);
      return removed;
    },
    get: (name) => catalog.get(name),
    list: () => catalog.list(),
    search: (query, limit) => catalog.search(query, limit),
    find: (query, limit) => catalog.find(query, limit),
  };
}
