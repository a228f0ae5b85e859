import MiniSearch from 'minisearch';
import { insertRanked, type RankedHit } from './lexical-index.js';
import { isStopWord, splitWords, stemWord } from './search-text.js';

/** What the fallback indexes of a tool. */
interface SpelledTool {
  id: string;
  name: string;
  description: string;
}

/**
 * minisearch's typo search at a wider distance than the word ranking's, with completions: up to two edits for a word of
 * four to six letters, three for a longer one. Name words count more than description words.
 */
const NEAREST = {
  boost: { name: 2, description: 1 },
  fuzzy: 0.4,
  maxFuzzy: 3,
  prefix: true,
  weights: { fuzzy: 0.5, prefix: 0.5 },
};

/** Scores are rounded to this step, so float noise from the order of additions cannot break a tie. */
const SCORE_STEP = 1e-6;

/**
 * The fallback when no word of a query reaches any tool: the tools whose words are nearest in spelling to the query's
 * (minisearch's fuzzy and prefix search over names and descriptions). A query none of whose words is near any tool's
 * word (nonsense, stop words only) ranks no tool. The index is built on the first search, which most catalogs never need.
 */
export class NearestSpellings {
  private readonly tools = new Map<string, SpelledTool>();
  private index: MiniSearch<SpelledTool> | undefined;

  add(id: string, name: string, description: string): void {
    const tool = { id, name, description };
    this.tools.set(id, tool);
    this.index?.add(tool);
  }

  remove(id: string): void {
    const tool = this.tools.get(id);
    if (!tool) return;
    this.tools.delete(id);
    this.index?.remove(tool);
  }

  private built(): MiniSearch<SpelledTool> {
    if (!this.index) {
      this.index = new MiniSearch<SpelledTool>({
        fields: ['name', 'description'],
        storeFields: [],
        tokenize: splitWords,
        processTerm: (word) => (isStopWord(word) ? null : stemWord(word)),
        autoVacuum: false,
      });
      this.index.addAll([...this.tools.values()]);
    }
    return this.index;
  }

  /** The best `size` tools by spelling (score, then name), skipping `exclude`. */
  rank(query: string, size: number, exclude: ReadonlySet<string> = new Set()): RankedHit[] {
    if (size <= 0 || this.tools.size === 0) return [];
    const top: RankedHit[] = [];
    for (const result of this.built().search(query, NEAREST)) {
      const score = Math.round(result.score / SCORE_STEP) * SCORE_STEP;
      if (top.length === size && score < top[size - 1].score) break;
      if (!exclude.has(result.id as string)) insertRanked(top, { id: result.id as string, score }, size);
    }
    return top;
  }
}
