import { describe, expect, it } from 'vitest';
import type { CatalogEmbedder } from './catalog-embeddings.js';
import { createToolCatalog } from './tool-catalog.js';
import { loadMcpServerCatalog, loadMcpServerToolLists } from './__fixtures__/load-mcp-server-catalog.js';
import { HELD_OUT_QUERIES, TUNING_QUERIES } from './__fixtures__/mcp-server-queries.js';
import { FRESH_HELD_OUT_QUERIES } from './__fixtures__/mcp-server-queries-fresh.js';
import { MORE_TUNING_QUERIES } from './__fixtures__/mcp-server-queries-more-tuning.js';
import { UNSEEN_HELD_OUT_QUERIES } from './__fixtures__/mcp-server-queries-unseen.js';
import { measureRelevance, type RelevanceReport } from './__fixtures__/measure-relevance.js';
import { hashingEmbedder } from './__fixtures__/hashing-embedder.js';
import { rankingEmbedder } from './__fixtures__/ranking-embedder.js';
import { measureOnSampledCatalogs } from './__fixtures__/sampled-catalogs.js';
import { NONSENSE_REQUEST, WEATHER_REQUESTS } from './__fixtures__/off-topic-requests.js';
import { misspell } from './__fixtures__/misspell.js';

const format = (label: string, report: RelevanceReport) =>
  `${label}: ${report.queries} queries, top-1 ${report.top1.toFixed(3)}, recall@5 ${report.recallAt5.toFixed(3)}`;

const entries = loadMcpServerCatalog();
const ALL_QUERIES = [...TUNING_QUERIES, ...MORE_TUNING_QUERIES, ...HELD_OUT_QUERIES, ...FRESH_HELD_OUT_QUERIES, ...UNSEEN_HELD_OUT_QUERIES];
/** The word ranking alone over every real-server tool. */
const words = createToolCatalog(entries);

/** Top-1 and recall@5 of find() on the two held-out sets. */
const measureHeldOut = async (catalog: ReturnType<typeof createToolCatalog>) => ({
  fresh: await measureRelevance(FRESH_HELD_OUT_QUERIES, (query, limit) => catalog.find(query, limit)),
  unseen: await measureRelevance(UNSEEN_HELD_OUT_QUERIES, (query, limit) => catalog.find(query, limit)),
});

describe('search relevance on real MCP servers’ tool lists (no embedder)', () => {
  const lists = loadMcpServerToolLists();

  it('has at least 300 tools from at least 15 servers, each with its source, and 300 queries whose tools exist', () => {
    expect(entries.length).toBeGreaterThanOrEqual(300);
    expect(lists.length).toBeGreaterThanOrEqual(15);
    for (const list of lists) {
      expect(list.source, list.server).toMatch(/^https:\/\/github\.com\/[\w.-]+\/[\w.-]+$/);
      expect(list.commit, list.server).toMatch(/^[0-9a-f]{40}$/);
    }
    expect(TUNING_QUERIES.length + HELD_OUT_QUERIES.length).toBeGreaterThanOrEqual(300);
    expect(FRESH_HELD_OUT_QUERIES.length).toBeGreaterThanOrEqual(120);
    for (const { query, expected } of ALL_QUERIES) {
      for (const item of expected) for (const name of item.split('|')) expect(words.get(name), `${query} expects ${name}`).toBeDefined();
    }
  });

  it('keeps its measured relevance on the tuning and the held-out requests', async () => {
    const tuning = await measureRelevance(TUNING_QUERIES, (query, limit) => words.search(query, limit));
    const moreTuning = await measureRelevance(MORE_TUNING_QUERIES, (query, limit) => words.search(query, limit));
    const firstHeldOut = await measureRelevance(HELD_OUT_QUERIES, (query, limit) => words.search(query, limit));
    const fresh = await measureRelevance(FRESH_HELD_OUT_QUERIES, (query, limit) => words.search(query, limit));
    const unseen = await measureRelevance(UNSEEN_HELD_OUT_QUERIES, (query, limit) => words.search(query, limit));
    console.log(
      `${format('tuning', tuning)}\n${format('more tuning', moreTuning)}\n${format('first held-out (since read while tuning)', firstHeldOut)}\n${format('fresh held-out', fresh)}\n${format('unseen held-out', unseen)}`,
    );
    // Floors a little under the measured values: a regression guard. Measured: tuning 0.855 / 0.970, more tuning
    // 0.773 / 0.964; the first held-out set, whose misses have since been read while tuning, 0.720 / 0.960; the fresh
    // held-out set 0.544 / 0.728 (its misses are not printed here: they must not guide tuning). The words alone do not
    // reach top-1 0.85 / recall@5 0.96 on held-out catalogs.
    expect(tuning.top1).toBeGreaterThanOrEqual(0.83);
    expect(tuning.recallAt5).toBeGreaterThanOrEqual(0.95);
    expect(moreTuning.top1).toBeGreaterThanOrEqual(0.75);
    expect(moreTuning.recallAt5).toBeGreaterThanOrEqual(0.95);
    expect(firstHeldOut.top1).toBeGreaterThanOrEqual(0.7);
    expect(firstHeldOut.recallAt5).toBeGreaterThanOrEqual(0.94);
    expect(fresh.top1).toBeGreaterThanOrEqual(0.51);
    expect(fresh.recallAt5).toBeGreaterThanOrEqual(0.7);
    // The unseen held-out set, measured in aggregate only, nothing tuned after it: 0.295 / 0.636.
    expect(unseen.top1).toBeGreaterThanOrEqual(0.29);
    expect(unseen.recallAt5).toBeGreaterThanOrEqual(0.62);
  });
});

describe('requests no real-server tool serves (no embedder)', () => {
  it('load nothing: no word of a nonsense or a weather request reaches a tool as written', () => {
    for (const query of [NONSENSE_REQUEST, ...WEATHER_REQUESTS]) {
      const matches = words.search(query, 5);
      expect(
        matches.filter((match) => !match.weak),
        query,
      ).toEqual([]);
      expect(
        matches.every((match) => match.score > 0),
        query,
      ).toBe(true);
    }
  });
});

describe('misspelled requests (no embedder)', () => {
  it('lists the requested tool, as a match or a weak match, for requests misspelled beyond the typo distance of the word ranking', () => {
    const requests = [...TUNING_QUERIES, ...MORE_TUNING_QUERIES, ...HELD_OUT_QUERIES];
    /** Share of requests whose first expected tool is listed in the top 5, weak matches included. */
    const listed = (edits: number) => {
      let found = 0;
      for (const { query, expected } of requests) {
        const names = words.search(misspell(query, edits), 5).map((match) => match.entry.name);
        if (names.some((name) => expected[0].split('|').includes(name))) found += 1;
      }
      return found / requests.length;
    };
    const twoEdits = listed(2);
    const threeEdits = listed(3);
    console.log(
      `misspelled requests, first expected tool listed in the top 5: 2 edits a word ${twoEdits.toFixed(3)}, 3 edits ${threeEdits.toFixed(3)}`,
    );
    // Measured: 0.585 and 0.410 (with character trigrams as the fallback, 0.556 and 0.383).
    expect(twoEdits).toBeGreaterThanOrEqual(0.57);
    expect(threeEdits).toBeGreaterThanOrEqual(0.4);
  });
});

describe('hybrid ranking on the same set with a deterministic hashing embedder', () => {
  // The hashing embedder knows no meaning (words and trigrams hashed to 1024 dimensions): this checks the fusion at the
  // scale of a real catalog, not what a real embedding model would reach (not measured here: no model runs in tests).
  // It is weaker than the words, so it gets a lower embedding weight; the default weight is measured below.
  const catalog = createToolCatalog(entries, { embedder: hashingEmbedder, embeddingWeight: 0.35 });

  it('keeps its measured relevance through find()', async () => {
    const tuning = await measureRelevance(TUNING_QUERIES, (query, limit) => catalog.find(query, limit));
    const firstHeldOut = await measureRelevance(HELD_OUT_QUERIES, (query, limit) => catalog.find(query, limit));
    const fresh = await measureRelevance(FRESH_HELD_OUT_QUERIES, (query, limit) => catalog.find(query, limit));
    const unseen = await measureRelevance(UNSEEN_HELD_OUT_QUERIES, (query, limit) => catalog.find(query, limit));
    console.log(
      `hybrid (hashing embedder, weight 0.35)\n${format('tuning', tuning)}\n${format('first held-out', firstHeldOut)}\n${format('fresh held-out', fresh)}\n${format('unseen held-out', unseen)}`,
    );
    // Measured: tuning 0.860 / 0.980, first held-out 0.740 / 0.950, fresh held-out 0.544 / 0.728, unseen 0.288 / 0.598.
    expect(tuning.top1).toBeGreaterThanOrEqual(0.84);
    expect(tuning.recallAt5).toBeGreaterThanOrEqual(0.96);
    expect(firstHeldOut.top1).toBeGreaterThanOrEqual(0.72);
    expect(firstHeldOut.recallAt5).toBeGreaterThanOrEqual(0.93);
    expect(fresh.top1).toBeGreaterThanOrEqual(0.52);
    expect(fresh.recallAt5).toBeGreaterThanOrEqual(0.71);
    expect(unseen.top1).toBeGreaterThanOrEqual(0.28);
    expect(unseen.recallAt5).toBeGreaterThanOrEqual(0.58);
  });

  it('at the default weight pulls top-1 below the words: a weak embedder needs the lower weight', async () => {
    const { fresh, unseen } = await measureHeldOut(createToolCatalog(entries, { embedder: hashingEmbedder }));
    const lowered = await measureRelevance(FRESH_HELD_OUT_QUERIES, (query, limit) => catalog.find(query, limit));
    console.log(`hybrid (hashing embedder, default weight)\n${format('fresh held-out', fresh)}\n${format('unseen held-out', unseen)}`);
    // Measured: fresh held-out 0.367 / 0.646, unseen 0.235 / 0.508 (the words alone: 0.544 / 0.728 and 0.295 / 0.636).
    expect(fresh.top1).toBeGreaterThanOrEqual(0.35);
    expect(unseen.top1).toBeGreaterThanOrEqual(0.22);
    expect(lowered.top1).toBeGreaterThan(fresh.top1 + 0.1);
  });
});

describe('search relevance on catalogs of 40 tools drawn from the real servers (no embedder)', () => {
  // The size of catalog an agent carries: each request is ranked in 5 catalogs of 40 tools holding the tools it expects
  // and others drawn at random from all 23 servers (the same draw every run).
  const wordsIn = (catalogEntries: typeof entries) => {
    const catalog = createToolCatalog(catalogEntries);
    return (query: string, limit: number) => catalog.search(query, limit);
  };

  it('keeps its measured relevance on the held-out requests', async () => {
    const fresh = await measureOnSampledCatalogs(FRESH_HELD_OUT_QUERIES, entries, wordsIn);
    const unseen = await measureOnSampledCatalogs(UNSEEN_HELD_OUT_QUERIES, entries, wordsIn);
    console.log(`catalogs of 40 tools\n${format('fresh held-out', fresh)}\n${format('unseen held-out', unseen)}`);
    // Measured: fresh held-out 0.780 / 0.914, unseen held-out 0.667 / 0.865 (below 0.85 / 0.96 here
    // too). Tuning requests, for comparison: 0.959 / 0.992.
    expect(fresh.top1).toBeGreaterThanOrEqual(0.75);
    expect(fresh.recallAt5).toBeGreaterThanOrEqual(0.9);
    expect(unseen.top1).toBeGreaterThanOrEqual(0.64);
    expect(unseen.recallAt5).toBeGreaterThanOrEqual(0.84);
  });
});

describe('hybrid fusion with an embedder of known quality', () => {
  // rankingEmbedder is told each request's expected tool and ranks it first with a set probability. These tests check
  // the weighting of the fusion (what it lets a good embedder decide), not what any real model knows.
  /** The embedder, failing the test if it ever throws (find() would quietly fall back to the words). */
  const strict = (embedder: CatalogEmbedder) => {
    const failures: unknown[] = [];
    const checked: CatalogEmbedder = async (texts) => {
      try {
        return await embedder(texts);
      } catch (error) {
        failures.push(error);
        throw error;
      }
    };
    return { embedder: checked, failures };
  };
  it('lets an embedder that always ranks the right tool first decide nearly every request; at half weight the words overrule it more often', async () => {
    const { embedder, failures } = strict(rankingEmbedder({ tools: entries, queries: ALL_QUERIES, accuracy: 1 }));
    const hybrid = await measureHeldOut(createToolCatalog(entries, { embedder }));
    const half = await measureHeldOut(createToolCatalog(entries, { embedder, embeddingWeight: 0.5 }));
    console.log(`embedder always right\n${format('fresh held-out', hybrid.fresh)}\n${format('unseen held-out', hybrid.unseen)}`);
    console.log(
      `embedder always right, embedding weight 0.5\n${format('fresh held-out', half.fresh)}\n${format('unseen held-out', half.unseen)}`,
    );
    expect(failures).toEqual([]);
    // Measured: 0.993 / 0.997 and 0.977 / 0.996; at weight 0.5, 0.850 / 0.986 and 0.750 / 0.989. (Fixed equal weights
    // give 0.932 and 0.909 top-1; the word ranking at twice the embedding's weight, as before this fusion, 0.755 and 0.659.)
    expect(hybrid.fresh.top1).toBeGreaterThanOrEqual(0.98);
    expect(hybrid.fresh.recallAt5).toBeGreaterThanOrEqual(0.99);
    expect(hybrid.unseen.top1).toBeGreaterThanOrEqual(0.97);
    expect(hybrid.unseen.recallAt5).toBeGreaterThanOrEqual(0.98);
    for (const set of ['fresh', 'unseen'] as const) expect(half[set].top1, set).toBeLessThan(hybrid[set].top1 - 0.1);
  });

  it('with an embedder right three times in four, confused with the words’ best hits otherwise, lifts held-out top-1 far above the words and not below the embedder', async () => {
    const confusable = (query: string) => words.search(query, 4).map((match) => match.entry.name);
    const { embedder, failures } = strict(rankingEmbedder({ tools: entries, queries: ALL_QUERIES, accuracy: 0.75, confusable }));
    const hybrid = await measureHeldOut(createToolCatalog(entries, { embedder }));
    // A weight so large that the words only break ties: the embedder's own ranking.
    const embedderAlone = await measureHeldOut(createToolCatalog(entries, { embedder, embeddingWeight: 1e6 }));
    const wordsAlone = await measureHeldOut(words);
    console.log(
      `embedder right 3 times in 4\n${format('fresh held-out', hybrid.fresh)}\n${format('unseen held-out', hybrid.unseen)}\n` +
        `the embedder alone\n${format('fresh held-out', embedderAlone.fresh)}\n${format('unseen held-out', embedderAlone.unseen)}`,
    );
    expect(failures).toEqual([]);
    // Measured: 0.830 / 0.997 and 0.795 / 0.996; the embedder alone 0.796 / 0.997 and 0.773 / 0.996; the words 0.544 /
    // 0.728 and 0.295 / 0.636. (Fixed equal weights give 0.816 and 0.735 top-1; the words at twice the embedding's weight,
    // 0.728 and 0.561.)
    for (const set of ['fresh', 'unseen'] as const) {
      expect(hybrid[set].top1, set).toBeGreaterThan(wordsAlone[set].top1 + 0.2);
      expect(hybrid[set].top1, set).toBeGreaterThanOrEqual(embedderAlone[set].top1);
      expect(hybrid[set].recallAt5, set).toBeGreaterThan(wordsAlone[set].recallAt5 + 0.2);
    }
  });
});
