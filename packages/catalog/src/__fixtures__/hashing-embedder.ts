import type { CatalogEmbedder } from '../catalog-embeddings.js';

import { textSeed } from './seeded-random.js';

const DIMENSIONS = 1024;

/**
 * A deterministic embedder for tests: words and character trigrams hashed into 1024 signed dimensions. It knows no
 * meaning (no synonyms, no world knowledge), so it exercises the hybrid plumbing, not what a real embedding model adds.
 */
export const hashingEmbedder: CatalogEmbedder = async (texts) =>
  texts.map((text) => {
    const vector = new Array<number>(DIMENSIONS).fill(0);
    const words = text
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((word) => word.length > 1);
    const add = (feature: string, weight: number) => {
      const value = textSeed(feature);
      vector[value % DIMENSIONS] += value & 0x80000000 ? -weight : weight;
    };
    for (const word of words) {
      add(`w:${word.replace(/(ing|ed|es|s)$/, '')}`, 1);
      const padded = ` ${word} `;
      for (let i = 0; i + 3 <= padded.length; i++) add(`t:${padded.slice(i, i + 3)}`, 0.3);
    }
    return vector;
  });
