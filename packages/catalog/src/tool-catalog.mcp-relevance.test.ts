import { describe, expect, it } from 'vitest';
import { createToolCatalog } from './tool-catalog.js';
import { loadMcpServerCatalog, loadMcpServerToolLists } from './__fixtures__/load-mcp-server-catalog.js';
import { HELD_OUT_QUERIES, TUNING_QUERIES } from './__fixtures__/mcp-server-queries.js';
import { FRESH_HELD_OUT_QUERIES } from './__fixtures__/mcp-server-queries-fresh.js';
import { MORE_TUNING_QUERIES } from './__fixtures__/mcp-server-queries-more-tuning.js';
import { UNSEEN_HELD_OUT_QUERIES } from './__fixtures__/mcp-server-queries-unseen.js';
import { measureRelevance, type RelevanceReport } from './__fixtures__/measure-relevance.js';
import { hashingEmbedder } from './__fixtures__/hashing-embedder.js';

const format = (label: string, report: RelevanceReport) =>
  `${label}: ${report.queries} queries, top-1 ${report.top1.toFixed(3)}, recall@5 ${report.recallAt5.toFixed(3)}`;

describe('search relevance on real MCP servers’ tool lists (no embedder)', () => {
  const lists = loadMcpServerToolLists();
  const entries = loadMcpServerCatalog();
  const catalog = createToolCatalog(entries);

  it('has at least 300 tools from at least 15 servers, each with its source, and 300 queries whose tools exist', () => {
    expect(entries.length).toBeGreaterThanOrEqual(300);
    expect(lists.length).toBeGreaterThanOrEqual(15);
    for (const list of lists) {
      expect(list.source, list.server).toMatch(/^https:\/\/github\.com\/[\w.-]+\/[\w.-]+$/);
      expect(list.commit, list.server).toMatch(/^[0-9a-f]{40}$/);
    }
    expect(TUNING_QUERIES.length + HELD_OUT_QUERIES.length).toBeGreaterThanOrEqual(300);
    expect(FRESH_HELD_OUT_QUERIES.length).toBeGreaterThanOrEqual(120);
    for (const { query, expected } of [...TUNING_QUERIES, ...MORE_TUNING_QUERIES, ...HELD_OUT_QUERIES, ...FRESH_HELD_OUT_QUERIES, ...UNSEEN_HELD_OUT_QUERIES]) {
      for (const item of expected) for (const name of item.split('|')) expect(catalog.get(name), `${query} expects ${name}`).toBeDefined();
    }
  });

  it('keeps its measured relevance on the tuning and the held-out requests', async () => {
    const tuning = await measureRelevance(TUNING_QUERIES, (query, limit) => catalog.search(query, limit));
    const moreTuning = await measureRelevance(MORE_TUNING_QUERIES, (query, limit) => catalog.search(query, limit));
    const firstHeldOut = await measureRelevance(HELD_OUT_QUERIES, (query, limit) => catalog.search(query, limit));
    const fresh = await measureRelevance(FRESH_HELD_OUT_QUERIES, (query, limit) => catalog.search(query, limit));
    const unseen = await measureRelevance(UNSEEN_HELD_OUT_QUERIES, (query, limit) => catalog.search(query, limit));
    console.log(
      `${format('tuning', tuning)}\n${format('more tuning', moreTuning)}\n${format('first held-out (since read while tuning)', firstHeldOut)}\n${format('fresh held-out', fresh)}\n${format('unseen held-out', unseen)}`,
    );
    // Floors a little under the measured values: a regression guard. Measured: tuning 0.855 / 0.970, more tuning
    // 0.773 / 0.964; the first held-out set, whose misses have since been read while tuning, 0.720 / 0.960; the fresh
    // held-out set 0.531 / 0.714 (its misses are not printed here: they must not guide tuning). The lexical goal
    // on held-out catalogs (top-1 >= 0.85, recall@5 >= 0.96) is not reached.
    expect(tuning.top1).toBeGreaterThanOrEqual(0.83);
    expect(tuning.recallAt5).toBeGreaterThanOrEqual(0.95);
    expect(moreTuning.top1).toBeGreaterThanOrEqual(0.75);
    expect(moreTuning.recallAt5).toBeGreaterThanOrEqual(0.95);
    expect(firstHeldOut.top1).toBeGreaterThanOrEqual(0.7);
    expect(firstHeldOut.recallAt5).toBeGreaterThanOrEqual(0.94);
    expect(fresh.top1).toBeGreaterThanOrEqual(0.51);
    expect(fresh.recallAt5).toBeGreaterThanOrEqual(0.7);
    // The unseen held-out set, measured in aggregate only, nothing tuned after it: 0.295 / 0.621.
    expect(unseen.top1).toBeGreaterThanOrEqual(0.29);
    expect(unseen.recallAt5).toBeGreaterThanOrEqual(0.62);
  });
});

describe('hybrid ranking on the same set with a deterministic hashing embedder', () => {
  // The hashing embedder knows no meaning (words and trigrams hashed to 1024 dimensions): this checks the fusion at the
  // scale of a real catalog, not what a real embedding model would reach (not measured here: no model runs in tests).
  const catalog = createToolCatalog(loadMcpServerCatalog(), { embedder: hashingEmbedder });

  it('keeps its measured relevance through find()', async () => {
    const tuning = await measureRelevance(TUNING_QUERIES, (query, limit) => catalog.find(query, limit));
    const firstHeldOut = await measureRelevance(HELD_OUT_QUERIES, (query, limit) => catalog.find(query, limit));
    const fresh = await measureRelevance(FRESH_HELD_OUT_QUERIES, (query, limit) => catalog.find(query, limit));
    const unseen = await measureRelevance(UNSEEN_HELD_OUT_QUERIES, (query, limit) => catalog.find(query, limit));
    console.log(
      `hybrid (hashing embedder)\n${format('tuning', tuning)}\n${format('first held-out', firstHeldOut)}\n${format('fresh held-out', fresh)}\n${format('unseen held-out', unseen)}`,
    );
    // Measured: tuning 0.835 / 0.980, first held-out 0.730 / 0.950, fresh held-out 0.510 / 0.735, unseen 0.288 / 0.591.
    expect(tuning.top1).toBeGreaterThanOrEqual(0.81);
    expect(tuning.recallAt5).toBeGreaterThanOrEqual(0.96);
    expect(firstHeldOut.top1).toBeGreaterThanOrEqual(0.71);
    expect(firstHeldOut.recallAt5).toBeGreaterThanOrEqual(0.93);
    expect(fresh.top1).toBeGreaterThanOrEqual(0.49);
    expect(fresh.recallAt5).toBeGreaterThanOrEqual(0.72);
    expect(unseen.top1).toBeGreaterThanOrEqual(0.28);
    expect(unseen.recallAt5).toBeGreaterThanOrEqual(0.59);
  });
});
