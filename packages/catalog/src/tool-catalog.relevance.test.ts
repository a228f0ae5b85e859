import { describe, expect, it } from 'vitest';
import { createToolCatalog } from './tool-catalog.js';
import { loadRelevanceCatalog } from './__fixtures__/load-relevance-catalog.js';
import { RELEVANCE_QUERIES } from './__fixtures__/relevance-queries.js';
import { NONSENSE_REQUEST, WEATHER_REQUESTS } from './__fixtures__/off-topic-requests.js';

describe('search relevance on the hand-written catalog', () => {
  const entries = loadRelevanceCatalog();
  const catalog = createToolCatalog(entries);

  it('has at least 300 tools and 60 queries whose expected tools exist', () => {
    expect(entries.length).toBeGreaterThanOrEqual(300);
    expect(RELEVANCE_QUERIES.length).toBeGreaterThanOrEqual(60);
    for (const query of RELEVANCE_QUERIES)
      for (const name of query.expected) expect(catalog.get(name), `${query.query} expects ${name}`).toBeDefined();
  });

  it('reaches top-1 >= 0.85 and recall@5 >= 0.97', () => {
    let top1 = 0;
    let recall = 0;
    const misses: string[] = [];
    const byKind = new Map<string, { count: number; top1: number }>();
    for (const query of RELEVANCE_QUERIES) {
      // What search_tools loads: weak matches are only listed.
      const names = catalog
        .search(query.query, 5)
        .filter((match) => !match.weak)
        .map((match) => match.entry.name);
      const hit = names[0] === query.expected[0];
      const found = query.expected.filter((name) => names.includes(name)).length / query.expected.length;
      top1 += hit ? 1 : 0;
      recall += found;
      const kind = byKind.get(query.kind) ?? { count: 0, top1: 0 };
      kind.count += 1;
      kind.top1 += hit ? 1 : 0;
      byKind.set(query.kind, kind);
      if (!hit || found < 1)
        misses.push(`  ${JSON.stringify(query.query)}: expected ${query.expected.join(', ')}; got ${names.join(', ')}`);
    }
    const top1Rate = top1 / RELEVANCE_QUERIES.length;
    const recallRate = recall / RELEVANCE_QUERIES.length;
    const kinds = [...byKind].map(([kind, value]) => `${kind} ${value.top1}/${value.count}`).join(', ');
    console.log(
      `search_tools relevance: ${RELEVANCE_QUERIES.length} queries over ${entries.length} tools: top-1 ${top1Rate.toFixed(3)}, recall@5 ${recallRate.toFixed(3)} (top-1 by kind: ${kinds})\n` +
        (misses.length ? `not perfect:\n${misses.join('\n')}` : ''),
    );
    expect(top1Rate).toBeGreaterThanOrEqual(0.85);
    expect(recallRate).toBeGreaterThanOrEqual(0.97);
  });

  it('loads nothing for a nonsense request, nor for a weather request once the weather tool is left out', () => {
    const withoutWeather = createToolCatalog(entries.filter((entry) => entry.name !== 'weather_forecast'));
    for (const query of [NONSENSE_REQUEST, ...WEATHER_REQUESTS]) {
      expect(
        withoutWeather.search(query, 5).filter((match) => !match.weak),
        query,
      ).toEqual([]);
    }
    // With it, a request whose words it has finds it.
    expect(
      catalog
        .search('weather forecast for Berlin', 5)
        .filter((match) => !match.weak)
        .map((match) => match.entry.name),
    ).toEqual(['weather_forecast']);
  });

  it('prunes exactly: a small limit gives the head of a large one', () => {
    for (const { query, kind } of RELEVANCE_QUERIES) {
      if (kind === 'multi') continue;
      const wide = catalog.search(query, 25);
      const narrow = catalog.search(query, 3);
      expect(
        narrow.map((match) => match.entry.name),
        query,
      ).toEqual(wide.slice(0, 3).map((match) => match.entry.name));
    }
  });
});
