import type { ResultType } from './code-search-schema.js';
import type { ContentType, FileScan } from './scan-file.js';
import { compareHits, type SearchHit } from './search-hit.js';
import type { Unavailable } from './search-hints.js';

/** Files whose content was read and scanned; how many of them were parsed (here or on the other thread), classified from a cached tree or the index, or told apart by a lexical scan alone. */
export interface SearchStats {
  scanned: number;
  parsed: number;
  cachedTrees: number;
  indexed: number;
  assisted: number;
  lexical: number;
}

/** What one search has found so far: its hits, counted per category, and the counters and hint facts beside them. */
export interface SearchTally {
  readonly stats: SearchStats;
  readonly unavailable: Unavailable;
  /** Categories that hold more than `maxResults` hits: a file's further hits of them only count. */
  readonly overflow: Set<ResultType>;
  add(hit: SearchHit): void;
  /** Adds what one file holds, in path order; true when a category overflowed with it. */
  apply(path: string, scan: FileScan, assisted: boolean): boolean;
  /** Hits each content category may still take before it overflows. */
  room(): Record<ContentType, number>;
  /** The hits without duplicates, sorted and cut to `maxResults`, and whether more exist. */
  finish(stoppedEarly: boolean): { results: SearchHit[]; truncated: boolean };
}

/** Creates the tally of a search that keeps at most `maxResults` hits per category. */
export function createSearchTally(maxResults: number): SearchTally {
  const hits: SearchHit[] = [];
  const counts: Record<ResultType, number> = { definition: 0, usage: 0, text: 0, path: 0 };
  const stats: SearchStats = { scanned: 0, parsed: 0, cachedTrees: 0, indexed: 0, assisted: 0, lexical: 0 };
  const unavailable: Unavailable = { noGrammar: new Map(), large: 0, failedGrammars: new Set() };
  const overflow = new Set<ResultType>();

  const add = (hit: SearchHit) => {
    hits.push(hit);
    counts[hit.result_type]++;
  };

  return {
    stats,
    unavailable,
    overflow,
    add,
    apply(path, scan, assisted) {
      const overflowing = overflow.size;
      if (scan.scanned) stats.scanned++;
      if (scan.large) unavailable.large++;
      if (scan.noGrammar) unavailable.noGrammar.set(scan.noGrammar, (unavailable.noGrammar.get(scan.noGrammar) ?? 0) + 1);
      if (scan.failedGrammar) unavailable.failedGrammars.add(scan.failedGrammar);
      if (scan.classifiedBy === 'parse') stats[assisted ? 'assisted' : 'parsed']++;
      else if (scan.classifiedBy === 'cachedTree') stats.cachedTrees++;
      else if (scan.classifiedBy === 'index') stats.indexed++;
      else if (scan.classifiedBy === 'lexical') stats.lexical++;
      for (const type of scan.overflow) overflow.add(type);
      for (const hit of scan.hits) {
        if (counts[hit.result_type] >= maxResults) overflow.add(hit.result_type);
        else add({ ...hit, path });
      }
      return overflow.size > overflowing;
    },
    room() {
      const left = (type: ContentType) => Math.max(0, maxResults - counts[type]);
      return { definition: left('definition'), usage: left('usage'), text: left('text') };
    },
    finish(stoppedEarly) {
      const unique = new Map<string, SearchHit>();
      for (const hit of hits) unique.set(`${hit.result_type}\u0000${hit.path}\u0000${hit.line}\u0000${hit.column}`, hit);
      const sorted = [...unique.values()].sort(compareHits);
      const truncated = stoppedEarly || overflow.size > 0 || sorted.length > maxResults;
      return { results: sorted.slice(0, maxResults), truncated };
    },
  };
}
