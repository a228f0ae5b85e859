import MiniSearch, { type SearchResult } from 'minisearch';
import { ToolHostError } from '@toolhost/core';
import type { CatalogEntry, CatalogMatch } from './catalog-entry.js';
import { catalogEntrySchema } from './catalog-entry-schema.js';
import { buildQueryTerms, type QueryTerm } from './query-terms.js';
import { indexTerms, nameKey } from './search-text.js';

/** A searchable set of catalog entries that can change at run time. */
export interface ToolCatalog {
  /** Adds entries to the catalog and its index; throws on an invalid or duplicate name. */
  add(entry: CatalogEntry | CatalogEntry[]): void;
  /** Removes an entry by name; returns whether it existed. */
  remove(name: string): boolean;
  get(name: string): CatalogEntry | undefined;
  /** Every entry, in insertion order. */
  list(): CatalogEntry[];
  /** Ranks entries for a query: tools named exactly come first (in query order), then the best matches up to `limit`. */
  search(query: string, limit: number): CatalogMatch[];
}

/** Tool names every provider accepts (OpenAI, Anthropic and MCP clients): letters, digits, `_` and `-`. */
const NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** Field boosts: the name says most about what a tool does, tags name the service, parameters say least. */
const FIELD_BOOST = { name: 3, tags: 1.5, description: 1, parameters: 0.5 };
const FIELDS = Object.keys(FIELD_BOOST);
/** Extra weight for a tool whose name words are all covered by the query (scaled by the share covered). */
const NAME_COVERAGE_BONUS = 1;
/**
 * Upper bound of final score / minisearch score for terms that each cover one query word: coverage factor (<= 2) x
 * name bonus (<= 1 + NAME_COVERAGE_BONUS); a compound term covering two words doubles it.
 */
const MAX_GAIN = 2 * (1 + NAME_COVERAGE_BONUS);
/** Exact-name selections beyond `limit` are still returned, up to this many. */
const MAX_EXACT = 25;

/** What minisearch indexes: each field holds its index terms (already split, stop-word filtered and stemmed), space-separated. */
interface IndexedTool {
  id: string;
  name: string;
  description: string;
  parameters: string;
  tags: string;
}

interface ToolRecord {
  entry: CatalogEntry;
  document: IndexedTool;
  /** Index terms of the name, for the name-coverage bonus. */
  nameTerms: Set<string>;
  /** Every distinct index term of the tool, for the vocabulary. */
  terms: Set<string>;
}

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

/** Inserts a score into a descending list kept at `size` entries. */
function insertTopScore(top: number[], score: number, size: number): void {
  let position = top.length;
  while (position > 0 && top[position - 1] < score) position--;
  top.splice(position, 0, score);
  if (top.length > size) top.pop();
}

/** Scores are rounded to this step, so float noise from insertion order cannot break a tie. */
const SCORE_STEP = 1e-6;

function roundScore(score: number): number {
  return Math.round(score / SCORE_STEP) * SCORE_STEP;
}

function byScoreThenName(a: CatalogMatch, b: CatalogMatch): number {
  if (a.score !== b.score) return b.score - a.score;
  return a.entry.name < b.entry.name ? -1 : a.entry.name > b.entry.name ? 1 : 0;
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

/** Creates a catalog over `entries`, indexed with minisearch (incremental add and remove). */
export function createToolCatalog(entries: CatalogEntry[] = []): ToolCatalog {
  const records = new Map<string, ToolRecord>();
  /** Lower-case name and name key → entry names (first registered first), for exact-name queries. */
  const byKey = new Map<string, string[]>();
  /** Index term → number of tools that contain it (lets a query term find a transposed spelling). */
  const vocabulary = new Map<string, number>();
  const index = new MiniSearch<IndexedTool>({
    fields: FIELDS,
    storeFields: [],
    tokenize: (text) => text.split(' '),
    processTerm: (term) => term || null,
    autoVacuum: false,
  });

  const keysOf = (name: string) => [...new Set([name.toLowerCase(), nameKey(name)])];

  const checkEntry = (entry: CatalogEntry) => {
    if (!entry || typeof entry !== 'object') throw new ToolHostError('invalid_options', 'catalog entry must be an object');
    if (typeof entry.name !== 'string' || !NAME.test(entry.name)) {
      throw new ToolHostError('invalid_options', `catalog entry name ${JSON.stringify(entry.name)} must match ${NAME}`);
    }
    if (records.has(entry.name)) throw new ToolHostError('duplicate_tool', `catalog entry ${entry.name} is already registered`);
    if (typeof entry.description !== 'string') throw new ToolHostError('invalid_options', `catalog entry ${entry.name} needs a description`);
    if (typeof entry.handler !== 'function') throw new ToolHostError('invalid_options', `catalog entry ${entry.name} needs a handler function`);
    if (!entry.inputSchema || typeof entry.inputSchema !== 'object') throw new ToolHostError('invalid_options', `catalog entry ${entry.name} needs an inputSchema object`);
    if (entry.tags !== undefined && (!Array.isArray(entry.tags) || entry.tags.some((tag) => typeof tag !== 'string'))) {
      throw new ToolHostError('invalid_options', `catalog entry ${entry.name} tags must be an array of strings`);
    }
  };

  const addOne = (entry: CatalogEntry) => {
    const fields = {
      name: indexTerms(entry.name),
      description: indexTerms(entry.description),
      parameters: indexTerms(parameterText(entry)),
      tags: indexTerms((entry.tags ?? []).join(', ')),
    };
    const document: IndexedTool = {
      id: entry.name,
      name: fields.name.join(' '),
      description: fields.description.join(' '),
      parameters: fields.parameters.join(' '),
      tags: fields.tags.join(' '),
    };
    const terms = new Set([...fields.name, ...fields.description, ...fields.parameters, ...fields.tags]);
    index.add(document);
    records.set(entry.name, { entry, document, nameTerms: new Set(fields.name), terms });
    for (const term of terms) vocabulary.set(term, (vocabulary.get(term) ?? 0) + 1);
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
    if (!/[_.\-]|\p{Ll}\p{Lu}/u.test(token)) return undefined;
    const key = nameKey(token);
    const separatorsOnly = token.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean).join('_');
    return (byKey.get(key) ?? byKey.get(separatorsOnly))?.[0];
  };

  const rank = (text: string, exclude: Set<string>, needed: number): CatalogMatch[] => {
    const { terms, groups } = buildQueryTerms(text, (term) => vocabulary.has(term));
    if (terms.length === 0) return [];
    const results = index.search(terms.map((term) => term.term).join(' '), {
      tokenize: (query) => query.split(' '),
      processTerm: (term) => term,
      boost: FIELD_BOOST,
      combineWith: 'OR',
      fuzzy: (_term, i) => terms[i].fuzzy,
      prefix: (_term, i) => terms[i].prefix,
      boostTerm: (_term, i) => terms[i].weight,
    });
    const termsByText = new Map<string, QueryTerm>(terms.map((term) => [term.term, term]));
    // minisearch sorts by (sum of term scores) x (matched terms). The final score divides out the matched terms and
    // multiplies by the matched query words and two bounded bonuses, so it is at most `gain` x the minisearch score:
    // once a result's bound falls below the `needed`-th best final score, no later result can enter the top.
    const gain = MAX_GAIN * Math.max(...terms.map((term) => term.groups.length));
    const kept: CatalogMatch[] = [];
    const top: number[] = [];
    for (const result of results) {
      if (top.length >= needed && result.score * gain + SCORE_STEP < top[needed - 1]) break;
      const record = records.get(result.id as string);
      if (!record || exclude.has(record.entry.name)) continue;
      const score = roundScore(scoreOf(result, record, termsByText, groups));
      kept.push({ entry: record.entry, score, exact: false });
      insertTopScore(top, score, needed);
    }
    return kept.sort(byScoreThenName).slice(0, needed);
  };

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
      const record = records.get(name);
      if (!record) return false;
      index.remove(record.document);
      records.delete(name);
      for (const term of record.terms) {
        const count = (vocabulary.get(term) ?? 1) - 1;
        if (count > 0) vocabulary.set(term, count);
        else vocabulary.delete(term);
      }
      for (const key of keysOf(name)) {
        const names = byKey.get(key)?.filter((other) => other !== name);
        if (names?.length) byKey.set(key, names);
        else byKey.delete(key);
      }
      return true;
    },
    get: (name) => records.get(name)?.entry,
    list: () => [...records.values()].map((record) => record.entry),
    search(query, limit) {
      const { named, text } = splitNamedTools(query, lookupName);
      const exact: CatalogMatch[] = named.slice(0, MAX_EXACT).map((name) => ({ entry: records.get(name)!.entry, score: 1, exact: true }));
      if (exact.length >= limit) return exact;
      const ranked = rank(text, new Set(named), limit - exact.length);
      const best = ranked[0]?.score ?? 0;
      // Ranked scores are reported relative to the best match (1); exact selections also score 1 and come first.
      const scaled = ranked.map((match) => ({ ...match, score: best > 0 ? Math.round((match.score / best) * 1000) / 1000 : 0 }));
      return [...exact, ...scaled];
    },
  };
  catalog.add(entries);
  return catalog;
}

function withinDistance(a: string, b: string, limit: number): boolean {
  if (Math.abs(a.length - b.length) > limit) return false;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      rowMin = Math.min(rowMin, current[j]);
    }
    if (rowMin > limit) return false;
    previous = current;
  }
  return previous[b.length] <= limit;
}

/** How many of the tool's name words the query covers, each query term covering at most one name word. */
function nameHitsOf(result: SearchResult, record: ToolRecord, termsByText: Map<string, QueryTerm>): number {
  const used = new Set<string>();
  const loose: string[] = [];
  let hits = 0;
  for (const [derived, fields] of Object.entries(result.match)) {
    if (!fields.includes('name') || !record.nameTerms.has(derived)) continue;
    if (termsByText.has(derived)) {
      used.add(derived);
      hits += 1;
    } else loose.push(derived);
  }
  for (const derived of loose) {
    for (const queryTerm of result.queryTerms) {
      if (used.has(queryTerm)) continue;
      const term = termsByText.get(queryTerm);
      if (!term) continue;
      const matches = (term.prefix && derived.startsWith(queryTerm)) || (term.fuzzy !== false && withinDistance(queryTerm, derived, term.fuzzy));
      if (!matches) continue;
      used.add(queryTerm);
      hits += 1;
      break;
    }
  }
  return hits;
}

function scoreOf(result: SearchResult, record: ToolRecord, termsByText: Map<string, QueryTerm>, groups: number): number {
  const matchedGroups = new Set<number>();
  for (const queryTerm of result.queryTerms) for (const group of termsByText.get(queryTerm)?.groups ?? []) matchedGroups.add(group);
  const base = result.score / Math.max(1, result.queryTerms.length);
  const nameCoverage = record.nameTerms.size ? Math.min(1, nameHitsOf(result, record, termsByText) / record.nameTerms.size) : 0;
  const coverage = groups ? matchedGroups.size / groups : 0;
  return base * matchedGroups.size * (1 + coverage) * (1 + NAME_COVERAGE_BONUS * nameCoverage);
}
