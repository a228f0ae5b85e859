import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as z from 'zod';
import { afterAll, describe, expect, it } from 'vitest';
import { approximateTokenizer } from '@toolhost/core';
import { createToolHost, type CatalogEntry } from 'toolhost';

const folders: string[] = [];
const tool = (name: string, description: string): CatalogEntry => ({
  name,
  description,
  inputSchema: { type: 'object', properties: {} },
  handler: () => name,
});
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

describe('host.catalog at run time', () => {
  it('adds, finds, expands, calls and removes a tool incrementally', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'toolhost-catalog-'));
    folders.push(folder);
    const initial: CatalogEntry[] = [
      {
        name: 'github_create_issue',
        description: 'Opens a GitHub issue.',
        inputSchema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
        handler: (args) => `#1 ${String(args.title)}`,
      },
    ];
    const host = createToolHost({ workspace: folder, catalog: initial, tokenizer: approximateTokenizer });
    try {
      host.catalog.add({
        name: 'invoice_send',
        description: 'Emails an invoice PDF to a customer.',
        inputSchema: z.object({ invoice_id: z.string(), cc: z.array(z.string()).optional() }),
        handler: (args) => ({ ok: true, output: `sent ${String(args.invoice_id)}`, data: { invoice_id: args.invoice_id } }),
      });
      const search = await host.call('search_tools', { query: 'email an invoice to a customer', limit: 1 });
      expect(search.data?.expanded).toEqual(['invoice_send']);
      expect(host.tools.map((tool) => tool.name)).not.toContain('invoice_send');
      expect(host.nextSegment().map((tool) => tool.name)).toContain('invoice_send');
      expect(await host.call('invoice_send', { invoice_id: 'in_1' })).toEqual({
        ok: true,
        output: 'sent in_1',
        data: { invoice_id: 'in_1' },
      });
      expect((await host.call('invoice_send', { invoice: 'in_1' })).error?.code).toBe('invalid_arguments');

      expect(host.catalog.remove('invoice_send')).toBe(true);
      expect(host.tools.map((tool) => tool.name)).not.toContain('invoice_send');
      expect((await host.call('invoice_send', { invoice_id: 'in_1' })).error?.code).toBe('unknown_tool');
      expect(host.catalog.list().map((entry) => entry.name)).toEqual(['github_create_issue']);
      expect(() => host.catalog.add({ ...initial[0], name: 'apply_patch' })).toThrow(/collides/);
    } finally {
      await host.close();
    }
  });

  it('ranks with catalogEmbedder: a request that shares no word with a tool still finds it, each tool embedded once', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'toolhost-catalog-'));
    folders.push(folder);
    // Two meaning axes (weather, payments) stand in for an embedding model.
    const embedded: string[][] = [];
    const catalogEmbedder = async (texts: string[]) => {
      embedded.push(texts);
      return texts.map((text) => [/rain|weather|forecast/i.test(text) ? 1 : 0, /invoice|refund|pay/i.test(text) ? 1 : 0, 0.01]);
    };
    const host = createToolHost({
      workspace: folder,
      catalog: [tool('weather_forecast', 'Forecast for a city.'), tool('stripe_create_refund', 'Refund a payment.')],
      catalogEmbedder,
      tokenizer: approximateTokenizer,
    });
    try {
      const search = await host.call('search_tools', { query: 'will it rain in Paris', limit: 1 });
      expect(search.output).toBe(
        'weather_forecast: Forecast for a city.\n\nLoaded for your next request (callable from then on): weather_forecast.',
      );
      expect(await host.catalog.find('give the money back', 1)).toMatchObject([{ entry: { name: 'stripe_create_refund' }, weak: false }]);
      expect(embedded.map((texts) => texts.length)).toEqual([3, 1]);
      // Without the embedder the same request matches nothing: none of its words is a tool's word or near one's spelling.
      expect(host.catalog.search('will it rain in Paris', 1)).toEqual([]);
      expect(() => createToolHost({ workspace: folder, catalogEmbedder: 'model' as never })).toThrow(
        expect.objectContaining({ code: 'invalid_options' }),
      );
      expect(() => createToolHost({ workspace: folder, catalogEmbedder, catalogEmbeddingWeight: -1 })).toThrow(
        expect.objectContaining({ code: 'invalid_options' }),
      );
    } finally {
      await host.close();
    }
  });

  it('passes catalogEmbeddingWeight to the fusion: 0 leaves the word order, a large weight follows the embedder', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'toolhost-catalog-'));
    folders.push(folder);
    const catalog = [
      tool('github_create_branch', 'Create a branch.'),
      tool('github_create_pull_request', 'Open a pull request from a branch.'),
    ];
    // This embedder reads every request as one about pull requests; the words point at the branch tool.
    const catalogEmbedder = async (texts: string[]) =>
      texts.map((text) => (/pull request/.test(text) || !text.includes(':') ? [1, 0] : [0, 1]));
    const first = async (catalogEmbeddingWeight: number) => {
      const host = createToolHost({ workspace: folder, catalog, catalogEmbedder, catalogEmbeddingWeight, tokenizer: approximateTokenizer });
      try {
        return (await host.catalog.find('create a branch', 2)).map((match) => match.entry.name);
      } finally {
        await host.close();
      }
    };
    expect(await first(0)).toEqual(['github_create_branch', 'github_create_pull_request']);
    expect(await first(3)).toEqual(['github_create_pull_request', 'github_create_branch']);
  });
});
