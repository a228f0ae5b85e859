import { embedMany, type EmbeddingModel } from 'ai';
import type { CatalogEmbedder } from 'toolhost';

/** Options of {@link toCatalogEmbedder}, passed through to `embedMany`. */
export interface AiSdkEmbedderOptions {
  /** Retries per embedding call (AI SDK default 2). */
  maxRetries?: number;
  /** Parallel calls when the model splits a batch (AI SDK default: unlimited). */
  maxParallelCalls?: number;
  /** Extra HTTP headers for the provider. */
  headers?: Record<string, string>;
}

/** Turns an AI SDK embedding model into a `catalogEmbedder` for createToolHost: it embeds each batch with `embedMany`. */
export function toCatalogEmbedder(model: EmbeddingModel, options: AiSdkEmbedderOptions = {}): CatalogEmbedder {
  return async (texts) => {
    const { embeddings } = await embedMany({ model, values: texts, ...options });
    return embeddings;
  };
}
