import { describe, expect, it } from 'vitest';
import type { CatalogEntry } from './catalog-entry.js';
import { embeddingText } from './catalog-embeddings.js';
import { createToolCatalog } from './tool-catalog.js';

function entry(name: string, description: string): CatalogEntry {
  return { name, description, inputSchema: { type: 'object', properties: {} }, handler: () => 'ok' };
}

/** Embeds by three meaning axes; records every call. */
function axesEmbedder(calls: string[][] = []) {
  const axes = [/weather|rain|forecast/i, /page|document|notion/i, /pull request|\bpr\b/i, /branch/i];
  const embedder = async (texts: string[]) => {
    calls.push([...texts]);
    return texts.map((text) => [...axes.map((axis) => (axis.test(text) ? 1 : 0)), 0.01]);
  };
  return { embedder, calls };
}

const ENTRIES = [
  entry('weather_forecast', 'Forecast for a city.'),
  entry('notion_create_page', 'Create a page in Notion.'),
  entry('github_create_pull_request', 'Open a pull request from a branch.'),
  entry('github_create_branch', 'Create a branch.'),
];
const names = (matches: { entry: CatalogEntry }[]) => matches.map((match) => match.entry.name);

describe('catalog embedder (hybrid ranking)', () => {
  it('embeds each tool once, with the first query, then only new queries and new tools', async () => {
    const { embedder, calls } = axesEmbedder();
    const catalog = createToolCatalog(ENTRIES, { embedder });
    expect(calls).toEqual([]);
    expect(names(await catalog.find('will it rain tomorrow', 1))).toEqual(['weather_forecast']);
    expect(calls).toEqual([[...ENTRIES.map(embeddingText), 'will it rain tomorrow']]);
    await catalog.find('will it rain tomorrow', 1);
    expect(calls).toHaveLength(1);
    catalog.add(entry('umbrella_alert', 'Warns before rain.'));
    catalog.remove('notion_create_page');
    await catalog.find('will it rain tomorrow', 5);
    expect(calls[1]).toEqual(['umbrella alert: Warns before rain.']);
    expect(names(await catalog.find('a document', 5))).not.toContain('notion_create_page');
  });

  it('fuses word and embedding rankings; exact names still come first', async () => {
    const { embedder } = axesEmbedder();
    const catalog = createToolCatalog(ENTRIES, { embedder });
    expect(names(await catalog.find('open a PR for my branch', 2))[0]).toBe('github_create_pull_request');
    const exact = await catalog.find('github_create_branch weather', 2);
    expect(exact[0]).toMatchObject({ entry: { name: 'github_create_branch' }, exact: true });
    expect(exact[1].entry.name).toBe('weather_forecast');
    // Without an embedder, find is search.
    const plain = createToolCatalog(ENTRIES);
    expect(await plain.find('create a branch', 3)).toEqual(plain.search('create a branch', 3));
  });

  it('falls back to word ranking when the embedder fails or returns bad vectors, and tries again next time', async () => {
    let mode: 'throw' | 'short' | 'nan' | 'ok' = 'throw';
    const { embedder: good } = axesEmbedder();
    const embedder = async (texts: string[]) => {
      if (mode === 'throw') throw new Error('offline');
      if (mode === 'short') return [[1, 0, 0, 0]];
      if (mode === 'nan') return texts.map(() => [Number.NaN, 0, 0, 0]);
      return good(texts);
    };
    const catalog = createToolCatalog(ENTRIES, { embedder });
    for (const next of ['throw', 'short', 'nan'] as const) {
      mode = next;
      expect(await catalog.find('create a branch', 1), next).toEqual(catalog.search('create a branch', 1));
    }
    mode = 'ok';
    expect(names(await catalog.find('will it rain', 1))).toEqual(['weather_forecast']);
  });

  it('weighs the embedding ranking by embeddingWeight: 0 ranks by the words without calling the embedder, a larger weight follows it', async () => {
    // Every request reads as one about pull requests to this embedder; the words point at the branch tool.
    const { embedder: byAxes, calls } = axesEmbedder();
    const embedder = async (texts: string[]) => byAxes(texts.map((text) => (text === 'create a branch' ? 'a pull request' : text)));
    const order = async (embeddingWeight?: number) =>
      names(await createToolCatalog(ENTRIES, { embedder, embeddingWeight }).find('create a branch', 2));
    const words = createToolCatalog(ENTRIES).search('create a branch', 2);
    expect(names(words)).toEqual(['github_create_branch', 'github_create_pull_request']);
    expect(await createToolCatalog(ENTRIES, { embedder, embeddingWeight: 0 }).find('create a branch', 2)).toEqual(words);
    expect(calls).toEqual([]);
    expect(await order(3)).toEqual(['github_create_pull_request', 'github_create_branch']);
    expect(calls).toHaveLength(1);
  });

  it('refuses an embedder that is not a function, and an embeddingWeight that is not a finite number >= 0', () => {
    expect(() => createToolCatalog(ENTRIES, { embedder: {} as never })).toThrow(expect.objectContaining({ code: 'invalid_options' }));
    for (const embeddingWeight of [-1, Number.NaN, Number.POSITIVE_INFINITY, '1' as never, null as never]) {
      expect(() => createToolCatalog(ENTRIES, { embeddingWeight }), String(embeddingWeight)).toThrow(
        expect.objectContaining({ code: 'invalid_options' }),
      );
    }
  });
});
