import { describe, expect, it } from 'vitest';
import type { FileScan } from './scan-file.js';
import { createSearchTally } from './search-tally.js';

const scan = (hits: FileScan['hits'], extra: Partial<FileScan> = {}): FileScan => ({ scanned: true, hits, overflow: [], ...extra });
const usage = (line: number) => ({ result_type: 'usage' as const, line, column: 1, name: 'Widget', snippet: `line ${line}` });
const definition = (line: number) => ({ result_type: 'definition' as const, line, column: 1, name: 'Widget', snippet: `line ${line}` });

describe('the tally of a search', () => {
  it('counts what each file adds, keeps max_results hits a category and overflows past them', () => {
    const tally = createSearchTally(2);
    expect(tally.apply('b.ts', scan([usage(3), definition(1)], { classifiedBy: 'parse' }), false)).toBe(false);
    expect(tally.room()).toEqual({ definition: 1, usage: 1, text: 2 });
    expect(tally.apply('a.ts', scan([usage(1), usage(2)], { classifiedBy: 'index' }), true)).toBe(true);
    expect([...tally.overflow]).toEqual(['usage']);
    expect(tally.room()).toEqual({ definition: 1, usage: 0, text: 2 });
    expect(tally.stats).toEqual({ scanned: 2, parsed: 1, cachedTrees: 0, indexed: 1, assisted: 0, lexical: 0 });
    const { results, truncated } = tally.finish(false);
    expect(truncated).toBe(true);
    expect(results.map((hit) => `${hit.result_type} ${hit.path}:${hit.line}`)).toEqual(['definition b.ts:1', 'usage a.ts:1']);
  });

  it('records the hints of a file, and parses on the other thread as assisted', () => {
    const tally = createSearchTally(5);
    tally.apply('big.ts', scan([], { scanned: false, large: true }), false);
    tally.apply('a.rb', scan([], { noGrammar: 'ruby' }), false);
    tally.apply('b.rb', scan([], { noGrammar: 'ruby' }), false);
    tally.apply('c.java', scan([], { failedGrammar: 'java', classifiedBy: 'parse' }), true);
    tally.apply('d.go', scan([], { classifiedBy: 'lexical', overflow: ['text'] }), false);
    expect(tally.unavailable).toEqual({ noGrammar: new Map([['ruby', 2]]), large: 1, failedGrammars: new Set(['java']) });
    expect(tally.stats).toMatchObject({ scanned: 4, assisted: 1, parsed: 0, lexical: 1 });
    expect(tally.finish(false).truncated).toBe(true);
  });

  it('answers without duplicates, in category then path order, truncated only when more exist or the search stopped early', () => {
    const tally = createSearchTally(3);
    tally.add({ result_type: 'path', path: 'z.ts', line: 1, column: 1, snippet: 'z.ts' });
    tally.apply('b.ts', scan([usage(1)]), false);
    tally.apply('b.ts', scan([usage(1)]), false);
    tally.apply('a.ts', scan([definition(4)]), false);
    const done = tally.finish(false);
    expect(done.truncated).toBe(false);
    expect(done.results.map((hit) => `${hit.result_type} ${hit.path}`)).toEqual(['definition a.ts', 'usage b.ts', 'path z.ts']);
    expect(tally.finish(true).truncated).toBe(true);
  });
});
