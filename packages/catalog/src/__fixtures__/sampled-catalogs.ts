import type { CatalogEntry, CatalogMatch } from '../catalog-entry.js';
import type { McpServerQuery } from './mcp-server-queries.js';
import { measureRelevance, type RelevanceReport } from './measure-relevance.js';
import { seededRandom, shuffle, textSeed } from './seeded-random.js';

/** Options of {@link measureOnSampledCatalogs}. */
export interface SampledCatalogOptions {
  /** Tools in each catalog (default 40, the size of a deferred catalog an agent typically carries). */
  size?: number;
  /** Catalogs drawn per request (default 5). */
  samples?: number;
}

/**
 * Top-1 and recall@5 on small catalogs of the kind an agent carries: for each request, `samples` catalogs of `size`
 * tools, each holding every tool the request expects (all `|` alternatives) and others drawn at random from `tools`
 * (from the request's text, so every run draws the same catalogs). `search` builds a catalog and ranks in it.
 */
export async function measureOnSampledCatalogs(
  queries: McpServerQuery[],
  tools: CatalogEntry[],
  createSearch: (entries: CatalogEntry[]) => (query: string, limit: number) => CatalogMatch[] | Promise<CatalogMatch[]>,
  options: SampledCatalogOptions = {},
): Promise<RelevanceReport> {
  const size = options.size ?? 40;
  const samples = options.samples ?? 5;
  let top1 = 0;
  let recallAt5 = 0;
  const misses: string[] = [];
  for (const query of queries) {
    const expected = new Set(query.expected.flatMap((item) => item.split('|')));
    const required = tools.filter((tool) => expected.has(tool.name));
    const others = tools.filter((tool) => !expected.has(tool.name));
    const random = seededRandom(textSeed(query.query));
    for (let sample = 0; sample < samples; sample++) {
      const entries = [...required, ...shuffle([...others], random).slice(0, Math.max(0, size - required.length))];
      const report = await measureRelevance([query], createSearch(entries));
      top1 += report.top1;
      recallAt5 += report.recallAt5;
      misses.push(...report.misses);
    }
  }
  const count = queries.length * samples;
  return { queries: queries.length, top1: top1 / count, recallAt5: recallAt5 / count, misses };
}
