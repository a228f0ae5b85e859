import { embeddingText, type CatalogEmbedder } from '../catalog-embeddings.js';
import type { CatalogEntry } from '../catalog-entry.js';
import type { McpServerQuery } from './mcp-server-queries.js';
import { seededRandom, shuffle, textSeed } from './seeded-random.js';

/** Options of {@link rankingEmbedder}. */
export interface RankingEmbedderOptions {
  /** Every tool the embedder may be asked to embed. */
  tools: CatalogEntry[];
  /** The requests it may be asked to embed, with the tool each expects first. */
  queries: McpServerQuery[];
  /** Share of requests whose expected tool it ranks first (decided per request from the request's text). */
  accuracy: number;
  /** Tools a request is easily confused with (such as the word ranking's best hits): a miss ranks one of these first. */
  confusable?: (query: string) => string[];
}

/** A request as find() passes it to the embedder: words split at spaces, commas and semicolons, joined by spaces. */
const normalize = (text: string) =>
  text
    .split(/[\s,;]+/)
    .filter(Boolean)
    .join(' ');

/**
 * A stand-in for an embedding model of known quality, to measure what hybrid fusion does with a good embedder (it
 * knows no meaning: it is told the answers). Each tool has a dimension of its own; a request's vector ranks its expected
 * tool first with probability `accuracy`, and otherwise at rank 2 to 5, below a confusable tool when one is given.
 * The other tools follow in an order drawn from the request's text, so the same request always gets the same vector.
 */
export function rankingEmbedder(options: RankingEmbedderOptions): CatalogEmbedder {
  const dimensionOf = new Map(options.tools.map((tool, position) => [embeddingText(tool), position]));
  const dimensionByName = new Map(options.tools.map((tool, position) => [tool.name, position]));
  const expectedOf = new Map(options.queries.map(({ query, expected }) => [normalize(query), expected[0]!.split('|')[0]!]));
  const size = options.tools.length;
  const embedQuery = (text: string): number[] => {
    const expected = expectedOf.get(normalize(text));
    const target = expected === undefined ? undefined : dimensionByName.get(expected);
    if (target === undefined) throw new Error(`rankingEmbedder: no expected tool for ${JSON.stringify(text)}`);
    const random = seededRandom(textSeed(text));
    const order = shuffle(
      [...Array(size).keys()].filter((dimension) => dimension !== target),
      random,
    );
    const hit = random() < options.accuracy;
    if (!hit) {
      const confusable = (options.confusable?.(text) ?? [])
        .map((name) => dimensionByName.get(name))
        .filter((dimension) => dimension !== undefined && dimension !== target);
      if (confusable.length > 0) {
        const first = confusable[Math.floor(random() * Math.min(3, confusable.length))]!;
        order.splice(order.indexOf(first), 1);
        order.unshift(first);
      }
    }
    order.splice(hit ? 0 : 1 + Math.floor(random() * 4), 0, target);
    const vector = new Array<number>(size).fill(0);
    order.forEach((dimension, rank) => {
      vector[dimension] = 1 - rank / (2 * size);
    });
    return vector;
  };
  return async (texts) =>
    texts.map((text) => {
      const dimension = dimensionOf.get(text);
      if (dimension === undefined) return embedQuery(text);
      const vector = new Array<number>(size).fill(0);
      vector[dimension] = 1;
      return vector;
    });
}
