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
const LEXICAL_WEIGHTS = {
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
/** At most this many index terms are reached by one completed or corrected query word (closest spellings first). */
const MAX_EXPANSIONS = 8;

/** The documents containing one index term: parallel arrays of slots and per-field term frequencies. */
interface PostingList {
  slots: number[];
  /** FIELD_COUNT frequencies per slot, in FIELD_NAMES order. */
  frequencies: number[];
}

const FIELD_COUNT = FIELD_NAMES.length;
const NAME_FIELD = 0;

/** A scored tool name, as kept in rank order by {@link insertRanked}. */
export interface RankedHit {
  id: string;
  score: number;
}

/** One scored document from {@link LexicalIndex.rank}. */
export interface LexicalHit extends RankedHit {
  /** Share of the query's words the tool matches, each weighted by its rarity and by the field it is found in (0 to 1). */
  coverage: number;
  /**
   * True when no query word reaches the tool as written (its stem, a synonym, an abbreviation, a compound or a swap of
   * two letters), only through a typo correction or the completion of a word: a guess at what the request meant.
   */
  weak: boolean;
}

/** An index term a query reaches, with the weight it carries for each query word it stands for. */
interface Reach {
  /** Pairs of (query word, weight). */
  groups: number[];
  weights: number[];
  /** Whether it is the literal word for some query word (counts for the word's rarity). */
  literal: boolean;
  /** Whether some query term reaches it as written, not only as a typo correction or a completion. */
  written: boolean;
}

/** Scores are rounded to this step, so float noise from the order of additions cannot break a tie. */
const SCORE_STEP = 1e-6;

function roundScore(score: number): number {
  return Math.round(score / SCORE_STEP) * SCORE_STEP;
}

/** Orders hits by score (higher first), then by id. */
export function byScoreThenId(a: RankedHit, b: RankedHit): number {
  if (a.score !== b.score) return b.score - a.score;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Inserts a hit into a list kept in rank order and at most `size` long. */
export function insertRanked<Hit extends RankedHit>(top: Hit[], hit: Hit, size: number): void {
  if (top.length === size && byScoreThenId(hit, top[size - 1]) >= 0) return;
  let position = top.length;
  while (position > 0 && byScoreThenId(hit, top[position - 1]) < 0) position--;
  top.splice(position, 0, hit);
  if (top.length > size) top.pop();
}

/** Two rows of the edit-distance table, reused by every call (single-threaded). */
let previousRow = new Int32Array(64);
let currentRow = new Int32Array(64);

/** Levenshtein distance between a and b if it is at most `limit`, otherwise limit + 1 (stops as soon as it must exceed it). */
function withinDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  if (previousRow.length <= b.length) {
    previousRow = new Int32Array(b.length * 2 + 1);
    currentRow = new Int32Array(b.length * 2 + 1);
  }
  for (let j = 0; j <= b.length; j++) previousRow[j] = j;
  for (let i = 1; i <= a.length; i++) {
    currentRow[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      const value = Math.min(previousRow[j] + 1, currentRow[j - 1] + 1, previousRow[j - 1] + cost);
      currentRow[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > limit) return limit + 1;
    const swap = previousRow;
    previousRow = currentRow;
    currentRow = swap;
  }
  return previousRow[b.length];
}

/**
 * An inverted index over tool fields with BM25F scoring per query word, a coverage factor (tools that match every word
 * of the query rank above tools that match one word strongly) and a bonus for tools whose whole name the query says.
 * Add and remove are incremental.
 */
export class LexicalIndex {
  private readonly slotOf = new Map<string, number>();
  private ids: (string | undefined)[] = [];
  /** Distinct index terms of each document, for removal. */
  private termsOf: (string[] | undefined)[] = [];
  private nameSizes: number[] = [];
  private firstWords: (string | undefined)[] = [];
  private lengths = new Float64Array(0);
  private readonly freeSlots: number[] = [];
  private count = 0;
  private readonly postings = new Map<string, PostingList>();
  private readonly totalLength = new Float64Array(FIELD_COUNT);
  /** How many tools have each first name word (a word many tools start with is a server prefix). */
  private readonly firstWordCount = new Map<string, number>();
  private sortedTerms: string[] | undefined;
  /** Index terms by length, for typo corrections (rebuilt with sortedTerms). */
  private termsByLength: Map<number, string[]> | undefined;
  // Scratch space reused by rank(): per slot, a query stamp, best score and coverage credit per query word, name weight.
  private stamp = new Int32Array(0);
  private currentStamp = 0;
  private groupScores = new Float64Array(0);
  private groupCredit = new Float64Array(0);
  private nameWeight = new Float64Array(0);
  private writtenMatch = new Uint8Array(0);
  private scratchGroups = 0;

  get size(): number {
    return this.count;
  }

  /** Whether any tool has this index term. */
  has(term: string): boolean {
    return this.postings.has(term);
  }

  private grow(capacity: number): void {
    if (this.lengths.length >= capacity * FIELD_COUNT) return;
    const size = Math.max(capacity, 64, (this.lengths.length / FIELD_COUNT) * 2);
    const lengths = new Float64Array(size * FIELD_COUNT);
    lengths.set(this.lengths);
    this.lengths = lengths;
  }

  add(id: string, fields: LexicalFields): void {
    const slot = this.freeSlots.pop() ?? this.ids.length;
    this.grow(slot + 1);
    this.ids[slot] = id;
    this.count += 1;
    const frequencies = new Map<string, number[]>();
    FIELD_NAMES.forEach((field, position) => {
      this.lengths[slot * FIELD_COUNT + position] = fields[field].length;
      this.totalLength[position] += fields[field].length;
      for (const term of fields[field]) {
        let counts = frequencies.get(term);
        if (!counts) frequencies.set(term, (counts = new Array<number>(FIELD_COUNT).fill(0)));
        counts[position] += 1;
      }
    });
    for (const [term, counts] of frequencies) {
      let list = this.postings.get(term);
      if (!list) {
        this.postings.set(term, (list = { slots: [], frequencies: [] }));
        this.sortedTerms = undefined;
      }
      list.slots.push(slot);
      list.frequencies.push(...counts);
    }
    this.termsOf[slot] = [...frequencies.keys()];
    this.nameSizes[slot] = new Set(fields.name).size;
    const first = fields.name[0];
    this.firstWords[slot] = first;
    if (first !== undefined) this.firstWordCount.set(first, (this.firstWordCount.get(first) ?? 0) + 1);
    this.slotOf.set(id, slot);
  }

  remove(id: string): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    for (let position = 0; position < FIELD_COUNT; position++) this.totalLength[position] -= this.lengths[slot * FIELD_COUNT + position];
    for (const term of this.termsOf[slot] ?? []) {
      const list = this.postings.get(term);
      if (!list) continue;
      const index = list.slots.indexOf(slot);
      if (index < 0) continue;
      // Swap with the last posting: order within a list does not matter.
      const last = list.slots.length - 1;
      list.slots[index] = list.slots[last];
      for (let position = 0; position < FIELD_COUNT; position++)
        list.frequencies[index * FIELD_COUNT + position] = list.frequencies[last * FIELD_COUNT + position];
      list.slots.pop();
      list.frequencies.length = last * FIELD_COUNT;
      if (last === 0) {
        this.postings.delete(term);
        this.sortedTerms = undefined;
      }
    }
    const first = this.firstWords[slot];
    if (first !== undefined) {
      const remaining = (this.firstWordCount.get(first) ?? 1) - 1;
      if (remaining > 0) this.firstWordCount.set(first, remaining);
      else this.firstWordCount.delete(first);
    }
    this.ids[slot] = undefined;
    this.termsOf[slot] = undefined;
    this.firstWords[slot] = undefined;
    this.slotOf.delete(id);
    this.freeSlots.push(slot);
    this.count -= 1;
  }

  private idf(documentFrequency: number): number {
    return Math.log(1 + (this.count - documentFrequency + 0.5) / (documentFrequency + 0.5));
  }

  private terms(): string[] {
    if (!this.sortedTerms) {
      this.sortedTerms = [...this.postings.keys()].sort();
      this.termsByLength = new Map();
      for (const term of this.sortedTerms) {
        const bucket = this.termsByLength.get(term.length);
        if (bucket) bucket.push(term);
        else this.termsByLength.set(term.length, [term]);
      }
    }
    return this.sortedTerms;
  }

  /**
   * Index terms a query term reaches (with their weights): itself (written), and completions or typo corrections
   * when allowed (not written).
   */
  private expand(term: QueryTerm, add: (indexTerm: string, weight: number, literal: boolean, written: boolean) => void): void {
    if (this.postings.has(term.term)) add(term.term, term.weight, term.weight === 1, true);
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
      this.terms();
      // A word without digits is not corrected into one with digits (ids, versions).
      const digits = /\d/.test(term.term);
      for (let length = term.term.length - limit; length <= term.term.length + limit; length++) {
        for (const candidate of this.termsByLength!.get(length) ?? []) {
          if (candidate === term.term || (!digits && /\d/.test(candidate))) continue;
          const distance = withinDistance(term.term, candidate, limit);
          if (distance <= limit) candidates.push({ term: candidate, weight: term.weight * LEXICAL_WEIGHTS.fuzzy[distance] });
        }
      }
    }
    candidates.sort((a, b) => b.weight - a.weight || a.term.length - b.term.length || (a.term < b.term ? -1 : 1));
    for (const candidate of candidates.slice(0, MAX_EXPANSIONS)) add(candidate.term, candidate.weight, false, false);
  }

  private prepareScratch(groups: number): void {
    const capacity = this.ids.length;
    if (this.stamp.length < capacity || this.scratchGroups < groups) {
      const size = Math.max(capacity, this.stamp.length * 2, 64);
      this.scratchGroups = Math.max(groups, this.scratchGroups, 8);
      this.stamp = new Int32Array(size);
      this.groupScores = new Float64Array(size * this.scratchGroups);
      this.groupCredit = new Float64Array(size * this.scratchGroups);
      this.nameWeight = new Float64Array(size);
      this.writtenMatch = new Uint8Array(size);
      this.currentStamp = 0;
    }
    this.currentStamp += 1;
  }

  /**
   * Scores every tool that matches at least one query term: the sum over query words of the best BM25F score of a
   * term standing for that word, times the share of the query covered (squared), times a bonus for covering the
   * tool's name. A word many tools start their name with (a server prefix) is not held against a tool when unsaid.
   * Hits are in rank order; with `weakLast`, every hit that is not weak comes before the weak ones.
   */
  rank(queryTerms: QueryTerm[], groups: number, size: number, exclude: ReadonlySet<string> = new Set(), weakLast = false): LexicalHit[] {
    if (groups === 0 || this.count === 0 || size <= 0) return [];
    const reaches = new Map<string, Reach>();
    for (const queryTerm of queryTerms) {
      this.expand(queryTerm, (indexTerm, weight, literal, written) => {
        let reach = reaches.get(indexTerm);
        if (!reach) reaches.set(indexTerm, (reach = { groups: [], weights: [], literal: false, written: false }));
        reach.literal ||= literal;
        reach.written ||= written;
        for (const group of queryTerm.groups) {
          const at = reach.groups.indexOf(group);
          if (at < 0) {
            reach.groups.push(group);
            reach.weights.push(weight);
          } else if (reach.weights[at] < weight) reach.weights[at] = weight;
        }
      });
    }
    this.prepareScratch(groups);
    const stride = this.scratchGroups;
    const { stamp, groupScores, groupCredit, nameWeight, writtenMatch, lengths } = this;
    const current = this.currentStamp;
    const averages = FIELD_NAMES.map((_, position) => Math.max(1, this.totalLength[position] / this.count));
    const weights = FIELD_NAMES.map((field) => LEXICAL_WEIGHTS.field[field]);
    const norms = FIELD_NAMES.map((field) => LEXICAL_WEIGHTS.lengthNorm[field]);
    const credits = FIELD_NAMES.map((field) => LEXICAL_WEIGHTS.coverageCredit[field]);
    const saturation = LEXICAL_WEIGHTS.saturation;
    const touched: number[] = [];
    /** Rarity of each query word: the idf of its rarest literal term, or of a word no tool has. */
    const groupIdf = new Float64Array(groups).fill(this.idf(0));
    const literalIdf = new Float64Array(groups).fill(-1);
    for (const [indexTerm, reach] of reaches) {
      const list = this.postings.get(indexTerm)!;
      const idf = this.idf(list.slots.length);
      if (reach.literal) for (const group of reach.groups) if (literalIdf[group] < idf) literalIdf[group] = idf;
      let bestWeight = 0;
      for (const weight of reach.weights) if (weight > bestWeight) bestWeight = weight;
      const { slots, frequencies } = list;
      for (let index = 0; index < slots.length; index++) {
        const slot = slots[index];
        let weightedFrequency = 0;
        let credit = 0;
        for (let position = 0; position < FIELD_COUNT; position++) {
          const frequency = frequencies[index * FIELD_COUNT + position];
          if (frequency === 0) continue;
          if (credit < credits[position]) credit = credits[position];
          const norm = 1 - norms[position] + (norms[position] * lengths[slot * FIELD_COUNT + position]) / averages[position];
          weightedFrequency += (weights[position] * frequency) / norm;
        }
        const base = idf * ((weightedFrequency * (saturation + 1)) / (weightedFrequency + saturation));
        if (stamp[slot] !== current) {
          stamp[slot] = current;
          groupScores.fill(0, slot * stride, slot * stride + groups);
          groupCredit.fill(0, slot * stride, slot * stride + groups);
          nameWeight[slot] = 0;
          writtenMatch[slot] = 0;
          touched.push(slot);
        }
        if (reach.written) writtenMatch[slot] = 1;
        for (let at = 0; at < reach.groups.length; at++) {
          const cell = slot * stride + reach.groups[at];
          const score = base * reach.weights[at];
          if (groupScores[cell] < score) groupScores[cell] = score;
          if (groupCredit[cell] < credit) groupCredit[cell] = credit;
        }
        if (frequencies[index * FIELD_COUNT + NAME_FIELD] > 0) nameWeight[slot] += bestWeight;
      }
    }
    for (let group = 0; group < groups; group++) if (literalIdf[group] >= 0) groupIdf[group] = literalIdf[group];
    let totalIdf = 0;
    for (let group = 0; group < groups; group++) totalIdf += groupIdf[group];
    // The best `size` hits, kept in rank order (score, then id) as they come: no array of every match. With
    // `weakLast`, the best `size` weak hits are kept apart and only fill the places the others leave.
    const top: LexicalHit[] = [];
    const weakTop: LexicalHit[] = [];
    for (const slot of touched) {
      let sum = 0;
      let covered = 0;
      let matchedGroups = 0;
      for (let group = 0; group < groups; group++) {
        const score = groupScores[slot * stride + group];
        if (score <= 0) continue;
        const credit = groupCredit[slot * stride + group];
        sum += score;
        covered += groupIdf[group] * credit;
        matchedGroups += credit;
      }
      let nameSize = this.nameSizes[slot];
      const first = this.firstWords[slot];
      // An unsaid server prefix does not count against the name share. (nameWeight counts it when it was said.)
      if (
        nameSize > 1 &&
        first !== undefined &&
        !reaches.has(first) &&
        (this.firstWordCount.get(first) ?? 0) >= LEXICAL_WEIGHTS.prefixTools
      )
        nameSize -= 1;
      const nameShare = nameSize ? Math.min(1, nameWeight[slot] / nameSize) : 0;
      const coverage = LEXICAL_WEIGHTS.rarityCoverage ? (totalIdf > 0 ? covered / totalIdf : 0) : matchedGroups / groups;
      const score = roundScore(sum * coverage ** LEXICAL_WEIGHTS.coveragePower * (1 + LEXICAL_WEIGHTS.nameCoverageBonus * nameShare));
      if (score <= 0) continue;
      const weak = writtenMatch[slot] === 0;
      const list = weak && weakLast ? weakTop : top;
      if (list.length === size && score < list[size - 1].score) continue;
      const id = this.ids[slot]!;
      if (exclude.has(id)) continue;
      insertRanked(list, { id, score, coverage, weak }, size);
    }
    return weakTop.length ? [...top, ...weakTop].slice(0, size) : top;
  }
}
