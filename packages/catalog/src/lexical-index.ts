import type { QueryTerm } from './query-terms.js';

/** The fields of a tool that are indexed, each holding index terms (split, stop words dropped, stemmed). */
export interface LexicalFields {
  name: string[];
  /** The description's first sentence: what the tool does. */
  summary: string[];
  /** The rest of the description: usage notes, examples. */
  details: string[];
  parameters: string[];
  tags: string[];
}

type FieldName = keyof LexicalFields;
const FIELD_NAMES: FieldName[] = ['name', 'summary', 'details', 'parameters', 'tags'];

/** The ranking weights (chosen on the tuning half of the real-server relevance set; see tool-catalog.relevance.test.ts). */
export const LEXICAL_WEIGHTS = {
  /** How much one occurrence in each field counts (BM25F): name words say most about what a tool does. */
  field: { name: 1.6, tags: 1.2, summary: 1, details: 0.4, parameters: 0.35 } as Record<FieldName, number>,
  /** Length normalisation per field (BM25 `b`): a long description should not drown a short one that says the same. */
  lengthNorm: { name: 0.3, tags: 0.3, summary: 0.2, details: 0.5, parameters: 0.5 } as Record<FieldName, number>,
  /** How much a query word found only in a field counts towards coverage (a word met only in usage notes is half said). */
  coverageCredit: { name: 1, tags: 1, summary: 1, details: 0.5, parameters: 0.5 } as Record<FieldName, number>,
  /** BM25 term-frequency saturation. */
  saturation: 2,
  /** Exponent on the share of the query words (weighted by rarity when `rarityCoverage`) a tool matches. */
  coveragePower: 2,
  rarityCoverage: true,
  /** Extra weight for a tool whose name words are all said by the query (scaled by the share said). */
  nameCoverageBonus: 1.5,
  /** A first name word shared by at least this many tools is a server prefix: unsaid, it does not count against the name share. */
  prefixTools: 3,
  /** Weight of an index term reached by completing a cut-short query word, and by typo corrections of distance 1 and 2. */
  prefix: 0.75,
  fuzzy: [1, 0.7, 0.45],
};
/** At most this many index terms are reached by one completed or corrected query word (the most frequent first). */
const MAX_EXPANSIONS = 12;

interface Posting {
  /** Term frequency per field, in FIELD_NAMES order. */
  tf: Float32Array;
}

interface IndexedDocument {
  id: string;
  fields: LexicalFields;
  lengths: Float32Array;
  nameTerms: Set<string>;
}

/** One scored document from {@link LexicalIndex.rank}. */
export interface LexicalHit {
  id: string;
  score: number;
}

/** A query term matched against one index term, with the weight the match carries. */
interface Expansion {
  term: string;
  weight: number;
  groups: number[];
  /** Whether this index term is the query word itself (not a synonym, completion or correction). */
  literal: boolean;
}

function withinDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (current[j] < rowMin) rowMin = current[j];
    }
    if (rowMin > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length];
}

/**
 * An inverted index over tool fields with BM25F scoring per query word, a coverage factor (tools that match every word
 * of the query rank above tools that match one word strongly) and a bonus for tools whose whole name the query says.
 * Add and remove are incremental.
 */
export class LexicalIndex {
  private readonly documents = new Map<number, IndexedDocument>();
  private readonly slotOf = new Map<string, number>();
  private readonly freeSlots: number[] = [];
  private nextSlot = 0;
  private readonly postings = new Map<string, Map<number, Posting>>();
  private readonly totalLength = new Float64Array(FIELD_NAMES.length);
  /** How many tools have each first name word (a word many tools start with is a server prefix). */
  private readonly firstWordCount = new Map<string, number>();
  private sortedTerms: string[] | undefined;

  get size(): number {
    return this.documents.size;
  }

  /** Whether any tool has this index term. */
  has(term: string): boolean {
    return this.postings.has(term);
  }

  add(id: string, fields: LexicalFields): void {
    const slot = this.freeSlots.pop() ?? this.nextSlot++;
    const lengths = new Float32Array(FIELD_NAMES.length);
    FIELD_NAMES.forEach((field, position) => {
      lengths[position] = fields[field].length;
      this.totalLength[position] += fields[field].length;
      for (const term of fields[field]) {
        let list = this.postings.get(term);
        if (!list) {
          list = new Map();
          this.postings.set(term, list);
          this.sortedTerms = undefined;
        }
        let posting = list.get(slot);
        if (!posting) {
          posting = { tf: new Float32Array(FIELD_NAMES.length) };
          list.set(slot, posting);
        }
        posting.tf[position] += 1;
      }
    });
    this.documents.set(slot, { id, fields, lengths, nameTerms: new Set(fields.name) });
    const first = fields.name[0];
    if (first !== undefined) this.firstWordCount.set(first, (this.firstWordCount.get(first) ?? 0) + 1);
    this.slotOf.set(id, slot);
  }

  remove(id: string): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    const document = this.documents.get(slot)!;
    FIELD_NAMES.forEach((field, position) => {
      this.totalLength[position] -= document.lengths[position];
      for (const term of document.fields[field]) {
        const list = this.postings.get(term);
        if (!list) continue;
        list.delete(slot);
        if (list.size === 0) {
          this.postings.delete(term);
          this.sortedTerms = undefined;
        }
      }
    });
    const first = document.fields.name[0];
    if (first !== undefined) {
      const count = (this.firstWordCount.get(first) ?? 1) - 1;
      if (count > 0) this.firstWordCount.set(first, count);
      else this.firstWordCount.delete(first);
    }
    this.documents.delete(slot);
    this.slotOf.delete(id);
    this.freeSlots.push(slot);
  }

  private idf(documentFrequency: number): number {
    const count = this.documents.size;
    return Math.log(1 + (count - documentFrequency + 0.5) / (documentFrequency + 0.5));
  }

  private terms(): string[] {
    if (!this.sortedTerms) this.sortedTerms = [...this.postings.keys()].sort();
    return this.sortedTerms;
  }

  /** Index terms a query term reaches: itself, and completions or typo corrections when it allows them. */
  private expand(term: QueryTerm): Expansion[] {
    const found = new Map<string, number>();
    if (this.postings.has(term.term)) found.set(term.term, term.weight);
    const candidates: { term: string; weight: number }[] = [];
    if (term.prefix) {
      const terms = this.terms();
      let low = 0;
      let high = terms.length;
      while (low < high) {
        const middle = (low + high) >> 1;
        if (terms[middle] < term.term) low = middle + 1;
        else high = middle;
      }
      for (let i = low; i < terms.length && terms[i].startsWith(term.term); i++) {
        if (terms[i] !== term.term) candidates.push({ term: terms[i], weight: term.weight * LEXICAL_WEIGHTS.prefix });
      }
    }
    if (term.fuzzy !== false) {
      const limit = term.fuzzy;
      for (const candidate of this.terms()) {
        if (candidate === term.term || Math.abs(candidate.length - term.term.length) > limit) continue;
        const distance = withinDistance(term.term, candidate, limit);
        if (distance <= limit) candidates.push({ term: candidate, weight: term.weight * LEXICAL_WEIGHTS.fuzzy[distance] });
      }
    }
    candidates.sort((a, b) => b.weight - a.weight || this.postings.get(b.term)!.size - this.postings.get(a.term)!.size);
    for (const candidate of candidates.slice(0, MAX_EXPANSIONS)) {
      if ((found.get(candidate.term) ?? 0) < candidate.weight) found.set(candidate.term, candidate.weight);
    }
    return [...found].map(([indexTerm, weight]) => ({ term: indexTerm, weight, groups: term.groups, literal: indexTerm === term.term && term.weight === 1 }));
  }

  /**
   * Scores every tool that matches at least one query term: the sum over query words of the best BM25F score of a
   * term standing for that word, times (share of the query covered)^2, times a bonus for covering the tool's name.
   */
  rank(queryTerms: QueryTerm[], groups: number): LexicalHit[] {
    if (groups === 0 || this.documents.size === 0) return [];
    const averages = FIELD_NAMES.map((_, position) => Math.max(1, this.totalLength[position] / this.documents.size));
    /** Per document: best score per query word, and the name words reached (with their weight). */
    const perDocument = new Map<number, { groupScores: Float64Array; groupCredit: Float64Array; nameWeight: Map<string, number> }>();
    /** Rarity of each query word: the idf of its rarest literal term (or of a word no tool has). */
    const groupIdf = new Float64Array(groups).fill(this.idf(0));
    const literalIdf = new Float64Array(groups).fill(-1);
    for (const queryTerm of queryTerms) {
      for (const expansion of this.expand(queryTerm)) {
        const list = this.postings.get(expansion.term)!;
        const idf = this.idf(list.size);
        if (queryTerm.weight === 1 || expansion.literal) {
          for (const group of expansion.groups) if (literalIdf[group] < idf * expansion.weight) literalIdf[group] = idf * expansion.weight;
        }
        for (const [slot, posting] of list) {
          const document = this.documents.get(slot)!;
          let weightedFrequency = 0;
          let credit = 0;
          for (let position = 0; position < FIELD_NAMES.length; position++) {
            const frequency = posting.tf[position];
            if (frequency === 0) continue;
            const field = FIELD_NAMES[position];
            if (credit < LEXICAL_WEIGHTS.coverageCredit[field]) credit = LEXICAL_WEIGHTS.coverageCredit[field];
            const norm = 1 - LEXICAL_WEIGHTS.lengthNorm[field] + (LEXICAL_WEIGHTS.lengthNorm[field] * document.lengths[position]) / averages[position];
            weightedFrequency += (LEXICAL_WEIGHTS.field[field] * frequency) / norm;
          }
          const score = expansion.weight * idf * ((weightedFrequency * (LEXICAL_WEIGHTS.saturation + 1)) / (weightedFrequency + LEXICAL_WEIGHTS.saturation));
          let state = perDocument.get(slot);
          if (!state) {
            state = { groupScores: new Float64Array(groups), groupCredit: new Float64Array(groups), nameWeight: new Map() };
            perDocument.set(slot, state);
          }
          for (const group of expansion.groups) {
            if (state.groupScores[group] < score) state.groupScores[group] = score;
            if (state.groupCredit[group] < credit) state.groupCredit[group] = credit;
          }
          if (posting.tf[0] > 0 && (state.nameWeight.get(expansion.term) ?? 0) < expansion.weight) state.nameWeight.set(expansion.term, expansion.weight);
        }
      }
    }
    for (let group = 0; group < groups; group++) if (literalIdf[group] >= 0) groupIdf[group] = literalIdf[group];
    let totalIdf = 0;
    for (let group = 0; group < groups; group++) totalIdf += groupIdf[group];
    const hits: LexicalHit[] = [];
    for (const [slot, state] of perDocument) {
      const document = this.documents.get(slot)!;
      let sum = 0;
      let covered = 0;
      let matchedGroups = 0;
      for (let group = 0; group < groups; group++) {
        const score = state.groupScores[group];
        if (score <= 0) continue;
        sum += score;
        covered += groupIdf[group] * state.groupCredit[group];
        matchedGroups += state.groupCredit[group];
      }
      let nameCovered = 0;
      for (const weight of state.nameWeight.values()) nameCovered += weight;
      let nameSize = document.nameTerms.size;
      const first = document.fields.name[0];
      if (nameSize > 1 && !state.nameWeight.has(first) && (this.firstWordCount.get(first) ?? 0) >= LEXICAL_WEIGHTS.prefixTools) nameSize -= 1;
      const nameShare = nameSize ? Math.min(1, nameCovered / nameSize) : 0;
      const coverage = LEXICAL_WEIGHTS.rarityCoverage ? (totalIdf > 0 ? covered / totalIdf : 0) : matchedGroups / groups;
      hits.push({ id: document.id, score: sum * coverage ** LEXICAL_WEIGHTS.coveragePower * (1 + LEXICAL_WEIGHTS.nameCoverageBonus * nameShare) });
    }
    return hits;
  }
}
