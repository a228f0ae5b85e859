import type { CatalogMatch } from '../catalog-entry.js';
import type { McpServerQuery } from './mcp-server-queries.js';

/** Top-1 and recall@5 of a ranking over a query set, with the queries it did not get fully right. */
export interface RelevanceReport {
  queries: number;
  top1: number;
  recallAt5: number;
  misses: string[];
}

const accepts = (item: string, name: string | undefined) => name !== undefined && item.split('|').includes(name);

/**
 * Runs every query through `search` (top 5) and scores the matches search_tools loads (weak ones are only listed): top-1
 * accepts any `|` alternative of the first expected item.
 */
export async function measureRelevance(
  queries: McpServerQuery[],
  search: (query: string, limit: number) => CatalogMatch[] | Promise<CatalogMatch[]>,
): Promise<RelevanceReport> {
  let top1 = 0;
  let recall = 0;
  const misses: string[] = [];
  for (const { query, expected } of queries) {
    const names = (await search(query, 5)).filter((match) => !match.weak).map((match) => match.entry.name);
    const hit = accepts(expected[0], names[0]);
    const found = expected.filter((item) => names.some((name) => accepts(item, name))).length / expected.length;
    top1 += hit ? 1 : 0;
    recall += found;
    if (!hit || found < 1) misses.push(`  ${JSON.stringify(query)}: expected ${expected.join(', ')}; got ${names.join(', ')}`);
  }
  return { queries: queries.length, top1: top1 / queries.length, recallAt5: recall / queries.length, misses };
}
