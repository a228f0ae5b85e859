import { ToolHostError } from '@toolhost/core';
import type { CatalogEntry, CatalogMatch } from './catalog-entry.js';
import { catalogEntrySchema } from './catalog-entry-schema.js';
import { CatalogEmbeddings, type CatalogEmbedder } from './catalog-embeddings.js';
import { LexicalIndex, insertRanked, type LexicalHit, type RankedHit } from './lexical-index.js';
import { buildQueryTerms } from './query-terms.js';
import { indexTerms, nameKey } from './search-text.js';
import { NearestSpellings } from './nearest-spellings.js';

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
const FUSION_DEPTH = 50;

/** Tool names every provider accepts (OpenAI, Anthropic and MCP clients): letters, digits, `_` and `-`. */
const NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** Exact-name selections beyond `limit` are still returned, up to this many. */
const MAX_EXACT = 25;

function parameterText(entry: CatalogEntry): string {
  let schema: Record<string, unknown>;
  try {
    schema = catalogEntrySchema(entry);
  } catch {
    return '';
  }
  const properties = schema.properties;
  if (!properties || typeof properties !== 'object') return '';
  const parts: string[] = [];
  for (const [name, property] of Object.entries(properties as Record<string, unknown>)) {
    if (name === 'max_output_tokens') continue;
    parts.push(name);
    const description = (property as { description?: unknown } | null)?.description;
    if (typeof description === 'string') parts.push(description);
  }
  return parts.join('. ');
}

/** Index terms of a description's first sentence (what the tool does) and of the rest (notes, examples). */
function descriptionFields(description: string): { summary: string[]; details: string[] } {
  const text = description.trim();
  // The first ". " (or "!", "?", a line break) that does not end an abbreviation such as "e.g.".
  const end = /(?<!\b(?:e\.g|i\.e|etc|vs|approx))[.!?](\s|$)|\n/.exec(text);
  const cut = end ? end.index + 1 : text.length;
  return { summary: indexTerms(text.slice(0, cut)), details: indexTerms(text.slice(cut)) };
}

/** The best `size` hits in rank order (score, then name), without sorting them all. */
function topHits(hits: RankedHit[], size: number): RankedHit[] {
  const top: RankedHit[] = [];
  for (const hit of hits) insertRanked(top, hit, size);
  return top;
}

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

/** Splits a query into the tools it names exactly and the remaining free text. */
function splitNamedTools(query: string, lookup: (token: string) => string | undefined): { named: string[]; text: string } {
  const named: string[] = [];
  const rest: string[] = [];
  for (const raw of query.split(/[\s,;]+/)) {
    const token = raw.replace(/^[`'"([{<]+|[`'")\]}>.:!?]+$/g, '');
    if (!token) continue;
    const name = lookup(token);
    if (name) {
      if (!named.includes(name)) named.push(name);
    } else rest.push(raw);
  }
  return { named, text: rest.join(' ') };
}

/** Creates a catalog over `entries` with an incremental lexical index (add and remove at run time). */
export function createToolCatalog(entries: CatalogEntry[] = [], options: ToolCatalogOptions = {}): ToolCatalog {
  const records = new Map<string, CatalogEntry>();
  /** Lower-case name and name key → entry names (first registered first), for exact-name queries. */
  const byKey = new Map<string, string[]>();
  const index = new LexicalIndex();
  const nearest = new NearestSpellings();
  if (options.embedder !== undefined && typeof options.embedder !== 'function')
    throw new ToolHostError('invalid_options', 'catalog embedder must be a function');
  const embeddingWeight = options.embeddingWeight === undefined ? FUSION.embedding : options.embeddingWeight;
  if (typeof embeddingWeight !== 'number' || !Number.isFinite(embeddingWeight) || embeddingWeight < 0) {
    throw new ToolHostError('invalid_options', `catalog embeddingWeight must be a finite number >= 0, got ${String(embeddingWeight)}`);
  }
  // At weight 0 the embedder could only break ties: it is not called.
  const embeddings = options.embedder && embeddingWeight > 0 ? new CatalogEmbeddings(options.embedder) : undefined;

  const keysOf = (name: string) => [...new Set([name.toLowerCase(), nameKey(name)])];

  const checkEntry = (entry: CatalogEntry) => {
    if (!entry || typeof entry !== 'object') throw new ToolHostError('invalid_options', 'catalog entry must be an object');
    if (typeof entry.name !== 'string' || !NAME.test(entry.name)) {
      throw new ToolHostError('invalid_options', `catalog entry name ${JSON.stringify(entry.name)} must match ${NAME}`);
    }
    if (records.has(entry.name)) throw new ToolHostError('duplicate_tool', `catalog entry ${entry.name} is already registered`);
    if (typeof entry.description !== 'string')
      throw new ToolHostError('invalid_options', `catalog entry ${entry.name} needs a description`);
    if (typeof entry.handler !== 'function')
      throw new ToolHostError('invalid_options', `catalog entry ${entry.name} needs a handler function`);
    if (!entry.inputSchema || typeof entry.inputSchema !== 'object')
      throw new ToolHostError('invalid_options', `catalog entry ${entry.name} needs an inputSchema object`);
    if (entry.tags !== undefined && (!Array.isArray(entry.tags) || entry.tags.some((tag) => typeof tag !== 'string'))) {
      throw new ToolHostError('invalid_options', `catalog entry ${entry.name} tags must be an array of strings`);
    }
  };

  const addOne = (entry: CatalogEntry) => {
    index.add(entry.name, {
      name: indexTerms(entry.name),
      ...descriptionFields(entry.description),
      parameters: indexTerms(parameterText(entry)),
      tags: indexTerms((entry.tags ?? []).join(', ')),
    });
    nearest.add(entry.name, entry.name, entry.description);
    embeddings?.add(entry);
    records.set(entry.name, entry);
    for (const key of keysOf(entry.name)) {
      const names = byKey.get(key);
      if (names) names.push(entry.name);
      else byKey.set(key, [entry.name]);
    }
  };

  const lookupName = (token: string): string | undefined => {
    if (records.has(token)) return token;
    const direct = byKey.get(token.toLowerCase());
    if (direct) return direct[0];
    // A plain word names a tool only when spelled exactly; separators or camelCase mark an identifier.
    if (!/[_.-]|\p{Ll}\p{Lu}/u.test(token)) return undefined;
    const key = nameKey(token);
    const separatorsOnly = token
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean)
      .join('_');
    return (byKey.get(key) ?? byKey.get(separatorsOnly))?.[0];
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
        checkEntry(item);
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
      for (const key of keysOf(name)) {
        const names = byKey.get(key)?.filter((other) => other !== name);
        if (names?.length) byKey.set(key, names);
        else byKey.delete(key);
      }
      return true;
    },
    get: (name) => records.get(name),
    list: () => [...records.values()],
    search(query, limit) {
      const { named, text } = splitNamedTools(query, lookupName);
      const exact = exactMatches(named);
      if (exact.length >= limit) return exact;
      let ranked = rank(text, new Set(named), limit - exact.length);
      // When no word reaches any tool: the nearest spellings, marked weak.
      if (ranked.length === 0 && exact.length === 0) ranked = weakMatches(query, new Set(), limit);
      return [...exact, ...relativeScores(ranked)];
    },
    async find(query, limit) {
      const { named, text } = splitNamedTools(query, lookupName);
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
      const fused = new Map<string, number>();
      // Each ranking adds weight / (k + rank); its scores relative to its best break ties between equal rank sums.
      const fuse = (ranked: { id: string; score: number }[], weight: number) => {
        const best = ranked[0]?.score ?? 0;
        ranked.forEach(({ id, score }, position) => {
          const relative = best > 0 ? Math.max(0, score) / best : 0;
          fused.set(id, (fused.get(id) ?? 0) + weight / (FUSION.k + position + 1) + RRF_TIE_BREAK * relative);
        });
      };
      const words = lexicalHits(text, exclude, FUSION_DEPTH);
      // The words count as far as their best tool covers the request: fully (1) when it matches every word.
      fuse(words, FUSION.lexicalFloor + (1 - FUSION.lexicalFloor) * (words[0]?.coverage ?? 0));
      fuse(embeddings.rank(queryVector, exclude, FUSION_DEPTH), embeddingWeight);
      const hits = [...fused].filter(([id]) => records.has(id)).map(([id, score]) => ({ id, score }));
      const ranked = topHits(hits, limit - exact.length).map((hit) => matchOf(hit));
      return [...exact, ...relativeScores(ranked)];
    },
  };
  catalog.add(entries);
  return catalog;
}
