import { ToolHostError } from '@toolhost/core';
import type { CatalogEntry, CatalogMatch } from './catalog-entry.js';
import { checkCatalogEntry } from './catalog-entry-check.js';
import { catalogEntryFields } from './catalog-entry-fields.js';
import { CatalogEmbeddings, type CatalogEmbedder } from './catalog-embeddings.js';
import { ExactToolNames } from './exact-tool-names.js';
import { LexicalIndex, type LexicalHit, type RankedHit } from './lexical-index.js';
import { NearestSpellings } from './nearest-spellings.js';
import { buildQueryTerms } from './query-terms.js';
import { DEFAULT_EMBEDDING_WEIGHT, FUSION_DEPTH, fuseRankings } from './rank-fusion.js';

/** A searchable set of catalog entries that can change at run time. */
export interface ToolCatalog {
  /** Adds entries to the catalog and its index; throws on an invalid or duplicate name. */
  add(entry: CatalogEntry | CatalogEntry[]): void;
  /** Removes an entry by name; returns whether it existed. */
  remove(name: string): boolean;
  get(name: string): CatalogEntry | undefined;
  /** Every entry, in insertion order. */
  list(): CatalogEntry[];
  /**
   * Ranks entries for a query by their words: tools named exactly come first (in query order), then the best matches
   * up to `limit`, then matches marked `weak` (reached only through a typo correction or a completion of the query's
   * words; when no word reaches any tool, the tools whose words are nearest in spelling). Empty when nothing is near.
   */
  search(query: string, limit: number): CatalogMatch[];
  /**
   * Like {@link ToolCatalog.search}, but with the catalog's embedder (if any) fused in: hybrid ranking by reciprocal rank
   * fusion of the word ranking and embedding similarity. Without an embedder, or if it fails, this is `search`.
   */
  find(query: string, limit: number): Promise<CatalogMatch[]>;
}

/** Options of {@link createToolCatalog}. */
export interface ToolCatalogOptions {
  /** Embeds tool texts and queries for hybrid ranking in {@link ToolCatalog.find}; each tool is embedded once and cached. */
  embedder?: CatalogEmbedder;
  /** Weight of the embedding ranking in hybrid ranking (default 1, a finite number, at least 0; 0 ranks by the words alone). */
  embeddingWeight?: number;
}

/** Exact-name selections beyond `limit` are still returned, up to this many. */
const MAX_EXACT = 25;

/**
 * Ranked scores relative to the best match (1), to three decimals and at least 0.001; weak matches relative to the best
 * weak one. Exact selections also score 1 and come first.
 */
function relativeScores(ranked: CatalogMatch[]): CatalogMatch[] {
  const best = (weak: boolean) => Math.max(0, ...ranked.filter((match) => match.weak === weak).map((match) => match.score));
  const bestOf = { strong: best(false), weak: best(true) };
  return ranked.map((match) => {
    const top = match.weak ? bestOf.weak : bestOf.strong;
    return { ...match, score: Math.max(0.001, Math.round((match.score / top) * 1000) / 1000) };
  });
}

/** Creates a catalog over `entries` with an incremental lexical index (add and remove at run time). */
export function createToolCatalog(entries: CatalogEntry[] = [], options: ToolCatalogOptions = {}): ToolCatalog {
  const records = new Map<string, CatalogEntry>();
  const exactNames = new ExactToolNames();
  const index = new LexicalIndex();
  const nearest = new NearestSpellings();
  if (options.embedder !== undefined && typeof options.embedder !== 'function')
    throw new ToolHostError('invalid_options', 'catalog embedder must be a function');
  const embeddingWeight = options.embeddingWeight === undefined ? DEFAULT_EMBEDDING_WEIGHT : options.embeddingWeight;
  if (typeof embeddingWeight !== 'number' || !Number.isFinite(embeddingWeight) || embeddingWeight < 0) {
    throw new ToolHostError('invalid_options', `catalog embeddingWeight must be a finite number >= 0, got ${String(embeddingWeight)}`);
  }
  // At weight 0 the embedder could only break ties: it is not called.
  const embeddings = options.embedder && embeddingWeight > 0 ? new CatalogEmbeddings(options.embedder) : undefined;

  const addOne = (entry: CatalogEntry) => {
    index.add(entry.name, catalogEntryFields(entry));
    nearest.add(entry.name, entry.name, entry.description);
    embeddings?.add(entry);
    records.set(entry.name, entry);
    exactNames.add(entry.name);
  };

  const lexicalHits = (text: string, exclude: Set<string>, needed: number, weakLast = false): LexicalHit[] => {
    const { terms, groups } = buildQueryTerms(text, (term) => index.has(term));
    return index.rank(terms, groups, needed, exclude, weakLast);
  };

  /** A ranked hit as a match (not an exact-name selection). */
  const matchOf = (hit: RankedHit, weakMatch = false): CatalogMatch => ({
    entry: records.get(hit.id)!,
    score: hit.score,
    exact: false,
    weak: weakMatch,
  });

  /** The word ranking, matches before weak ones. */
  const rank = (text: string, exclude: Set<string>, needed: number): CatalogMatch[] =>
    lexicalHits(text, exclude, needed, true).map((hit) => matchOf(hit, hit.weak));

  const exactMatches = (named: string[]): CatalogMatch[] =>
    named.slice(0, MAX_EXACT).map((name) => ({ entry: records.get(name)!, score: 1, exact: true, weak: false }));

  const weakMatches = (text: string, exclude: Set<string>, needed: number): CatalogMatch[] =>
    nearest.rank(text, needed, exclude).map((hit) => matchOf(hit, true));

  const catalog: ToolCatalog = {
    add(entry) {
      // Every entry is checked before any is added, so a bad batch adds nothing.
      const list = Array.isArray(entry) ? entry : [entry];
      const names = new Set<string>();
      for (const item of list) {
        checkCatalogEntry(item, (name) => records.has(name));
        if (names.has(item.name)) throw new ToolHostError('duplicate_tool', `catalog entry ${item.name} is listed twice`);
        names.add(item.name);
      }
      for (const item of list) addOne(item);
    },
    remove(name) {
      if (!records.has(name)) return false;
      index.remove(name);
      nearest.remove(name);
      embeddings?.remove(name);
      records.delete(name);
      exactNames.remove(name);
      return true;
    },
    get: (name) => records.get(name),
    list: () => [...records.values()],
    search(query, limit) {
      const { named, text } = exactNames.splitQuery(query);
      const exact = exactMatches(named);
      if (exact.length >= limit) return exact;
      let ranked = rank(text, new Set(named), limit - exact.length);
      // When no word reaches any tool: the nearest spellings, marked weak.
      if (ranked.length === 0 && exact.length === 0) ranked = weakMatches(query, new Set(), limit);
      return [...exact, ...relativeScores(ranked)];
    },
    async find(query, limit) {
      const { named, text } = exactNames.splitQuery(query);
      if (!embeddings || !text.trim() || records.size === 0) return catalog.search(query, limit);
      const exact = exactMatches(named);
      if (exact.length >= limit) return exact;
      let queryVector: Float64Array;
      try {
        queryVector = await embeddings.prepare(text);
      } catch {
        return catalog.search(query, limit);
      }
      const exclude = new Set(named);
      const words = lexicalHits(text, exclude, FUSION_DEPTH);
      const embedded = embeddings.rank(queryVector, exclude, FUSION_DEPTH);
      const fused = fuseRankings(words, embedded, embeddingWeight, (id) => records.has(id), limit - exact.length);
      return [...exact, ...relativeScores(fused.map((hit) => matchOf(hit)))];
    },
  };
  catalog.add(entries);
  return catalog;
}
