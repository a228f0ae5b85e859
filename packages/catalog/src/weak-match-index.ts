/** One tool and how much of its text shares character trigrams with a query. */
export interface WeakHit {
  id: string;
  score: number;
}

/** The distinct character trigrams of the lower-cased words of a text (each word padded with spaces). */
function trigrams(text: string): Set<string> {
  const grams = new Set<string>();
  for (const word of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (!word) continue;
    const padded = ` ${word} `;
    for (let i = 0; i + 3 <= padded.length; i++) grams.add(padded.slice(i, i + 3));
  }
  return grams;
}

/**
 * The fallback when no word of a query matches: ranks tools by character-trigram overlap (cosine) between the query
 * and the tool's name and description, the nearest spellings to offer. A tool that shares no trigram is not ranked.
 */
export class WeakMatchIndex {
  private readonly postings = new Map<string, Set<string>>();
  private readonly gramsOf = new Map<string, Set<string>>();
  /** Texts not indexed yet: the index is built on the first weak search, which most catalogs never need. */
  private readonly waiting = new Map<string, string>();

  add(id: string, text: string): void {
    this.waiting.set(id, text);
  }

  private index(id: string, text: string): void {
    const grams = trigrams(text);
    this.gramsOf.set(id, grams);
    for (const gram of grams) {
      let ids = this.postings.get(gram);
      if (!ids) this.postings.set(gram, (ids = new Set()));
      ids.add(id);
    }
  }

  remove(id: string): void {
    this.waiting.delete(id);
    const grams = this.gramsOf.get(id);
    if (!grams) return;
    for (const gram of grams) {
      const ids = this.postings.get(gram);
      ids?.delete(id);
      if (ids?.size === 0) this.postings.delete(gram);
    }
    this.gramsOf.delete(id);
  }

  /** Every tool that shares a trigram with the query, with their cosine similarity (above 0). */
  rank(query: string): WeakHit[] {
    for (const [id, text] of this.waiting) this.index(id, text);
    this.waiting.clear();
    const grams = trigrams(query);
    const shared = new Map<string, number>();
    for (const gram of grams) for (const id of this.postings.get(gram) ?? []) shared.set(id, (shared.get(id) ?? 0) + 1);
    const hits: WeakHit[] = [];
    for (const [id, count] of shared) hits.push({ id, score: count / Math.sqrt(grams.size * this.gramsOf.get(id)!.size) });
    return hits;
  }
}
