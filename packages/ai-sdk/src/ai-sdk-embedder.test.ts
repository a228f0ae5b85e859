import { MockEmbeddingModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { createFakeToolHost } from '@toolhost/testing';
import type { CatalogEntry } from 'toolhost';
import { toCatalogEmbedder } from './index.js';

const linux = { platform: 'linux', env: {} };
const tool = (name: string, description: string): CatalogEntry => ({
  name,
  description,
  inputSchema: { type: 'object', properties: {} },
  handler: () => `${name} ran`,
});
const catalog = [
  tool('weather_forecast', 'Forecast for a city: temperature, precipitation and wind.'),
  tool('notion_create_page', 'Create a page in a Notion workspace.'),
  tool('github_create_issue', 'Create a GitHub issue in a repository.'),
];

/** Three concept axes (weather, documents, code): a stand-in for a real model's sense of meaning. */
const CONCEPTS: RegExp[] = [/rain|weather|forecast|temperature|umbrella/i, /page|notion|document|note/i, /github|issue|bug|repository/i];
function embedText(text: string): number[] {
  return [...CONCEPTS.map((concept) => (concept.test(text) ? 1 : 0)), 0.01];
}

function mockModel() {
  return new MockEmbeddingModelV3({
    maxEmbeddingsPerCall: 100,
    doEmbed: async ({ values }) => ({ embeddings: values.map(embedText), warnings: [] }),
  });
}

describe('toCatalogEmbedder', () => {
  it('embeds through embedMany, one vector per text in order', async () => {
    const model = mockModel();
    const embed = toCatalogEmbedder(model, { maxRetries: 0 });
    expect(await embed(['will it rain', 'a notion page'])).toEqual([embedText('will it rain'), embedText('a notion page')]);
    expect(model.doEmbedCalls.map((call) => call.values)).toEqual([['will it rain', 'a notion page']]);
  });

  it('lets search_tools find a tool that shares no word with the request, embedding each tool once', async () => {
    const model = mockModel();
    const host = createFakeToolHost({ environment: linux, catalog, catalogEmbedder: toCatalogEmbedder(model, { maxRetries: 0 }) });
    const first = await host.call('search_tools', { query: 'will it rain in Paris tomorrow?', limit: 1 });
    expect(first.output).toBe(
      'weather_forecast: Forecast for a city: temperature, precipitation and wind.\n\n' +
        'Loaded for your next request (callable from then on): weather_forecast.',
    );
    // One embedder call: every tool plus the query.
    expect(model.doEmbedCalls.map((call) => call.values.length)).toEqual([4]);
    await host.call('search_tools', { query: 'file a bug', limit: 1 });
    expect(model.doEmbedCalls.map((call) => call.values.length)).toEqual([4, 1]);
    // Added tools are embedded with the next query; the same query again costs no call at all.
    host.catalog.add(tool('umbrella_reminder', 'Reminds you to take an umbrella.'));
    const again = await host.call('search_tools', { query: 'file a bug', limit: 1 });
    expect(again.output.split('\n')[0]).toBe('github_create_issue: Create a GitHub issue in a repository.');
    expect(model.doEmbedCalls.map((call) => call.values)).toEqual([
      expect.any(Array),
      ['file a bug'],
      ['umbrella reminder: Reminds you to take an umbrella.'],
    ]);
    await host.call('search_tools', { query: 'file a bug', limit: 1 });
    expect(model.doEmbedCalls).toHaveLength(3);
    await host.close();
  });

  it('falls back to word ranking when the embedding model fails', async () => {
    const model = new MockEmbeddingModelV3({
      doEmbed: async () => {
        throw new Error('model unavailable');
      },
    });
    const host = createFakeToolHost({ environment: linux, catalog, catalogEmbedder: toCatalogEmbedder(model, { maxRetries: 0 }) });
    const result = await host.call('search_tools', { query: 'create a github issue', limit: 1 });
    expect(result.ok).toBe(true);
    expect(result.output.split('\n')[0]).toBe('github_create_issue: Create a GitHub issue in a repository.');
    await host.close();
  });
});
