import { ToolHostError } from '@toolhost/core';
import type { CatalogEntry } from './catalog-entry.js';
import { splitWords } from './search-text.js';

/** Turns texts into embedding vectors, one per text in the same order (e.g. an AI SDK embedding model through `embedMany`). */
export type CatalogEmbedder = (texts: string[]) => Promise<number[][]>;

/** Characters of a tool's description that are embedded (its name words come first). */
const EMBEDDED_CHARACTERS = 2000;
/** Query embeddings kept, most recent first out last. */
const QUERY_CACHE_SIZE = 256;

/** The text embedded for a tool: its name as words, then its description. */
export function embeddingText(entry: CatalogEntry): string {
  return `${splitWords(entry.name).join(' ')}: ${entry.description.trim().slice(0, EMBEDDED_CHARACTERS)}`;
}

function unitVector(values: number[], what: string): Float64Array {
  if (!Array.isArray(values) || values.length === 0 || values.some((value) => typeof value !== 'number' || !Number.isFinite(value))) {
    throw new ToolHostError('invalid_options', `catalog embedder returned an invalid vector for ${what}`);
  }
  let norm = 0;
  for (const value of values) norm += value * value;
  norm = Math.sqrt(norm) || 1;
  return Float64Array.from(values, (value) => value / norm);
}

/**
 * Embeddings of the catalog's tools, computed once per tool and kept until it is removed: tools added since the last
 * search are embedded in the same embedder call as the next query. Query embeddings are cached too (least recently used).
 */
export class CatalogEmbeddings {
  private readonly vectors = new Map<string, { entry: CatalogEntry; vector: Float64Array }>();
  private readonly pending = new Map<string, CatalogEntry>();
  private readonly queries = new Map<string, Float64Array>();

  constructor(private readonly embedder: CatalogEmbedder) {}

  add(entry: CatalogEntry): void {
    this.pending.set(entry.name, entry);
  }

  remove(name: string): void {
    this.pending.delete(name);
    this.vectors.delete(name);
  }

  /** How many tools have a cached embedding. */
  get cached(): number {
    return this.vectors.size;
  }

  /** Embeds the tools not embedded yet and the query (one embedder call at most); returns the query's unit vector. */
  async prepare(query: string): Promise<Float64Array> {
    const cachedQuery = this.queries.get(query);
    const batch = [...this.pending.values()];
    if (cachedQuery && batch.length === 0) {
      this.queries.delete(query);
      this.queries.set(query, cachedQuery);
      return cachedQuery;
    }
    const texts = batch.map(embeddingText);
    if (!cachedQuery) texts.push(query);
    const vectors = await this.embedder(texts);
    if (!Array.isArray(vectors) || vectors.length !== texts.length) {
      throw new ToolHostError(
        'invalid_options',
        `catalog embedder returned ${Array.isArray(vectors) ? vectors.length : 'no'} vectors for ${texts.length} texts`,
      );
    }
    // Every vector is checked before any is kept, so a bad answer leaves the tools pending for the next search.
    const units = batch.map((entry, position) => unitVector(vectors[position], entry.name));
    const queryVector = cachedQuery ?? unitVector(vectors[vectors.length - 1], 'the query');
    batch.forEach((entry, position) => {
      // A tool removed or replaced while the embedder ran keeps no stale vector.
      if (this.pending.get(entry.name) !== entry) return;
      this.pending.delete(entry.name);
      this.vectors.set(entry.name, { entry, vector: units[position] });
    });
    this.queries.delete(query);
    this.queries.set(query, queryVector);
    if (this.queries.size > QUERY_CACHE_SIZE) this.queries.delete(this.queries.keys().next().value as string);
    return queryVector;
  }

  /** Tool names by cosine similarity to the query vector, best first (ties by name), skipping `exclude`. */
  rank(query: Float64Array, exclude: Set<string>, size: number): { id: string; score: number }[] {
    const scored: { id: string; score: number }[] = [];
    for (const [name, { vector }] of this.vectors) {
      if (exclude.has(name) || vector.length !== query.length) continue;
      let dot = 0;
      for (let i = 0; i < vector.length; i++) dot += vector[i] * query[i];
      scored.push({ id: name, score: dot });
    }
    scored.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return scored.slice(0, size);
  }
}
