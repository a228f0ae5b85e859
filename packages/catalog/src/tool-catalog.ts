import type { CatalogEntry, CatalogMatch } from './catalog-entry.js';

/** A searchable set of catalog entries that can change at run time. */
export interface ToolCatalog {
  add(entry: CatalogEntry | CatalogEntry[]): void;
  /** Removes an entry by name; returns whether it existed. */
  remove(name: string): boolean;
  get(name: string): CatalogEntry | undefined;
  /** Every entry, in insertion order. */
  list(): CatalogEntry[];
  search(query: string, limit: number): CatalogMatch[];
}

const NAME = /^[a-zA-Z0-9_.-]{1,64}$/;

/** Creates a catalog over `entries`. */
export function createToolCatalog(entries: CatalogEntry[] = []): ToolCatalog {
  const byName = new Map<string, CatalogEntry>();
  const catalog: ToolCatalog = {
    add(entry) {
      for (const item of Array.isArray(entry) ? entry : [entry]) {
        if (!NAME.test(item.name)) throw new TypeError(`catalog entry name ${JSON.stringify(item.name)} must match ${NAME}`);
        if (byName.has(item.name)) throw new TypeError(`catalog entry ${item.name} is already registered`);
        byName.set(item.name, item);
      }
    },
    remove: (name) => byName.delete(name),
    get: (name) => byName.get(name),
    list: () => [...byName.values()],
    search(query, limit) {
      const words = query.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
      const scored: CatalogMatch[] = [];
      for (const entry of byName.values()) {
        const name = entry.name.toLowerCase();
        const text = `${name} ${entry.description.toLowerCase()}`;
        let score = 0;
        for (const word of words) if (text.includes(word)) score += name.includes(word) ? 2 : 1;
        if (score > 0) scored.push({ entry, score });
      }
      scored.sort((a, b) => b.score - a.score || (a.entry.name < b.entry.name ? -1 : 1));
      return scored.slice(0, limit);
    },
  };
  catalog.add(entries);
  return catalog;
}
