import { insertRanked, type LexicalHit, type RankedHit } from './lexical-index.js';

/**
 * Reciprocal rank fusion: a tool at rank r (from 1) of a ranking adds weight / (k + r). The embedding ranking weighs
 * `embeddingWeight` (default 1); the word ranking weighs from `lexicalFloor` to 1, as far as its best tool covers the
 * request's words, so a request the words only half match leans on the embedder, and a good embedder can decide a
 * disagreement (tool-catalog.mcp-relevance.test.ts measures it). An embedder weaker than the words pulls the ranking
 * below theirs at the default weight.
 */
const FUSION = { k: 5, lexicalFloor: 0.5, embedding: 1 };
/** Weight of each ranking's relative score (score / its best): small, it only orders tools whose rank sums are equal. */
const RRF_TIE_BREAK = 1e-4;
/** How deep each ranking is read for fusion. */
export const FUSION_DEPTH = 50;
/** Weight of the embedding ranking when the options give none. */
export const DEFAULT_EMBEDDING_WEIGHT = FUSION.embedding;

/** The best `size` hits in rank order (score, then name), without sorting them all. */
function topHits(hits: RankedHit[], size: number): RankedHit[] {
  const top: RankedHit[] = [];
  for (const hit of hits) insertRanked(top, hit, size);
  return top;
}

/**
 * The word ranking and the embedding ranking fused (reciprocal rank fusion), keeping the best `size` of the tools
 * `keep` accepts.
 */
export function fuseRankings(
  words: LexicalHit[],
  embedded: { id: string; score: number }[],
  embeddingWeight: number,
  keep: (id: string) => boolean,
  size: number,
): RankedHit[] {
  const fused = new Map<string, number>();
  // Each ranking adds weight / (k + rank); its scores relative to its best break ties between equal rank sums.
  const fuse = (ranked: { id: string; score: number }[], weight: number) => {
    const best = ranked[0]?.score ?? 0;
    ranked.forEach(({ id, score }, position) => {
      const relative = best > 0 ? Math.max(0, score) / best : 0;
      fused.set(id, (fused.get(id) ?? 0) + weight / (FUSION.k + position + 1) + RRF_TIE_BREAK * relative);
    });
  };
  // The words count as far as their best tool covers the request: fully (1) when it matches every word.
  fuse(words, FUSION.lexicalFloor + (1 - FUSION.lexicalFloor) * (words[0]?.coverage ?? 0));
  fuse(embedded, embeddingWeight);
  const hits = [...fused].filter(([id]) => keep(id)).map(([id, score]) => ({ id, score }));
  return topHits(hits, size);
}
