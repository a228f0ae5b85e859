import { describe, expect, it } from 'vitest';
import { approximateTokenizer, createMemorySpool, createMemoryWorkspace, type ToolContext } from '@toolhost/core';
import type { CatalogEntry } from './catalog-entry.js';
import { createSearchToolsTool, oneLineDescription, type ToolAvailability } from './search-tools-tool.js';
import { createToolCatalog } from './tool-catalog.js';

const context: ToolContext = {
  workspace: createMemoryWorkspace(),
  tokenizer: approximateTokenizer,
  spool: createMemorySpool(),
  maxOutputTokens: 10_000,
  shell: 'unix_like',
  signal: new AbortController().signal,
};

const entries: CatalogEntry[] = [
  {
    name: 'github_create_issue',
    description: 'Opens a GitHub issue.\nLonger notes that only full detail shows.',
    inputSchema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
    handler: () => 'ok',
  },
  { name: 'github_list_issues', description: 'Lists GitHub issues.', inputSchema: { type: 'object', properties: {} }, handler: () => 'ok' },
  { name: 'weather_now', description: 'Current weather.', inputSchema: { type: 'object', properties: {} }, handler: () => 'ok', deferred: false },
];

function setup(status: Record<string, ToolAvailability> = {}) {
  const matched: string[][] = [];
  const tool = createSearchToolsTool({
    catalog: createToolCatalog(entries),
    availability: (name) => status[name] ?? (name === 'weather_now' ? 'callable' : 'hidden'),
    onMatched: (names) => matched.push(names),
  });
  const run = (args: Record<string, unknown>) => tool.execute({ limit: 5, detail_level: 'name_description', max_output_tokens: 10_000, ...args }, context);
  return { run, matched };
}

describe('search_tools', () => {
  it('lists name and one-line description and says what loads next request', async () => {
    const { run, matched } = setup();
    const result = await run({ query: 'create a github issue' });
    expect(result.ok).toBe(true);
    expect(result.output).toBe(
      'github_create_issue: Opens a GitHub issue.\ngithub_list_issues: Lists GitHub issues.\n\n' +
        'Loaded for your next request (callable from then on): github_create_issue, github_list_issues.',
    );
    expect(matched).toEqual([['github_create_issue', 'github_list_issues']]);
    expect(result.data).toEqual({
      matches: [
        { name: 'github_create_issue', score: 1, exact: false, weak: false, available: 'next_request' },
        { name: 'github_list_issues', score: expect.any(Number), exact: false, weak: false, available: 'next_request' },
      ],
      expanded: ['github_create_issue', 'github_list_issues'],
    });
  });

  it('prints names only at detail_level name, and schemas at full', async () => {
    const { run } = setup();
    const names = await run({ query: 'github_create_issue', detail_level: 'name' });
    expect(names.output).toBe('github_create_issue\n\nLoaded for your next request (callable from then on): github_create_issue.');
    const full = await run({ query: 'github_create_issue', detail_level: 'full' });
    expect(full.output).toBe(
      'github_create_issue: Opens a GitHub issue.\nLonger notes that only full detail shows.\n' +
        'input_schema: {"type":"object","properties":{"title":{"type":"string"}},"required":["title"]}\n\n' +
        'Loaded for your next request (callable from then on): github_create_issue.',
    );
  });

  it('does not expand tools that are callable or already loaded', async () => {
    const { run, matched } = setup({ github_list_issues: 'pending' });
    const result = await run({ query: 'weather_now github_list_issues' });
    expect(result.output).toBe(
      'weather_now: Current weather.\ngithub_list_issues: Lists GitHub issues.\n\n' +
        'Loaded for your next request (callable from then on): github_list_issues.\nAlready callable: weather_now.',
    );
    expect(matched).toEqual([]);
    expect(result.data?.expanded).toEqual([]);
  });

  it('returns the nearest tools, marked weak, when no word matches, and says how to search again', async () => {
    const { run, matched } = setup();
    const result = await run({ query: 'will it rain in Paris', limit: 2, detail_level: 'name' });
    expect(result.output).toBe(
      'No tool matched the words of "will it rain in Paris". Nearest by spelling (weak matches: read each description before calling one; ' +
        'or search again with the action and service, e.g. "create jira issue", or an exact tool name):\n' +
        'github_create_issue\ngithub_list_issues\n\n' +
        'Loaded for your next request (callable from then on): github_create_issue, github_list_issues.',
    );
    expect(result.data).toMatchObject({ matches: [{ name: 'github_create_issue', weak: true }, { name: 'github_list_issues', weak: true }] });
    expect(matched).toEqual([['github_create_issue', 'github_list_issues']]);
  });

  it('says so when the catalog is empty', async () => {
    const tool = createSearchToolsTool({ catalog: createToolCatalog([]), availability: () => 'hidden', onMatched: () => undefined });
    const result = await tool.execute({ query: 'anything', limit: 5, detail_level: 'name_description', max_output_tokens: 10_000 }, context);
    expect(result).toEqual({ ok: true, output: 'No tools matched "anything": the catalog is empty.', data: { matches: [], expanded: [] } });
  });

  it('keeps descriptions to one bounded line', () => {
    expect(oneLineDescription('  First line.\nSecond line.')).toBe('First line.');
    const long = oneLineDescription(`${'word '.repeat(80)}end`);
    expect(long.length).toBeLessThanOrEqual(201);
    expect(long.endsWith('…')).toBe(true);
  });
});
