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
  {
    name: 'weather_now',
    description: 'Current weather.',
    inputSchema: { type: 'object', properties: {} },
    handler: () => 'ok',
    deferred: false,
  },
];

function setup(status: Record<string, ToolAvailability> = {}) {
  const matched: string[][] = [];
  const tool = createSearchToolsTool({
    catalog: createToolCatalog(entries),
    availability: (name) => status[name] ?? (name === 'weather_now' ? 'callable' : 'hidden'),
    onMatched: (names) => matched.push(names),
  });
  const run = (args: Record<string, unknown>) =>
    tool.execute({ limit: 5, detail_level: 'name_description', max_output_tokens: 10_000, ...args }, context);
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

  it('says no tool matched and lists the nearest spellings as weak matches without loading them; a tool not near is not listed', async () => {
    const { run, matched } = setup();
    const result = await run({ query: 'isseus', limit: 1, detail_level: 'name' });
    expect(result.output).toBe(
      'No tool matched "isseus". To search again, name the action and the service, e.g. "create jira issue".\n\n' +
        'Weak matches (not loaded; search the exact name to load one):\ngithub_list_issues',
    );
    expect(result.data).toEqual({
      matches: [{ name: 'github_list_issues', score: 1, exact: false, weak: true, available: 'not_loaded' }],
      expanded: [],
    });
    const misspelled = await run({ query: 'ghitub' });
    expect(misspelled.output).toBe(
      'No tool matched "ghitub". To search again, name the action and the service, e.g. "create jira issue".\n\n' +
        'Weak matches (not loaded; search the exact name to load one):\ngithub_create_issue: Opens a GitHub issue.\ngithub_list_issues: Lists GitHub issues.',
    );
    for (const query of ['will it rain in Paris', 'xyzzy plugh frobnicate', 'zzzz qqqq']) {
      expect(await run({ query })).toEqual({
        ok: true,
        output: `No tool matched ${JSON.stringify(query)}. To search again, name the action and the service, e.g. "create jira issue".`,
        data: { matches: [], expanded: [] },
      });
    }
    expect(matched).toEqual([]);
  });

  it('loads the matches and lists the weak ones (reached only through a typo correction) apart; the exact name loads one', async () => {
    const { run, matched } = setup({ weather_now: 'hidden' });
    const result = await run({ query: 'list issues wether' });
    expect(result.output).toBe(
      'github_list_issues: Lists GitHub issues.\ngithub_create_issue: Opens a GitHub issue.\n\n' +
        'Weak matches (not loaded; search the exact name to load one):\nweather_now: Current weather.\n\n' +
        'Loaded for your next request (callable from then on): github_list_issues, github_create_issue.',
    );
    expect(result.data).toEqual({
      matches: [
        { name: 'github_list_issues', score: 1, exact: false, weak: false, available: 'next_request' },
        { name: 'github_create_issue', score: 0.025, exact: false, weak: false, available: 'next_request' },
        { name: 'weather_now', score: 1, exact: false, weak: true, available: 'not_loaded' },
      ],
      expanded: ['github_list_issues', 'github_create_issue'],
    });
    // Full detail gives schemas of the tools it loads only.
    const full = await run({ query: 'list issues wether', detail_level: 'full' });
    expect(full.output.split('\n\n').slice(2)).toEqual([
      'Weak matches (not loaded; search the exact name to load one):\nweather_now: Current weather.',
      'Loaded for your next request (callable from then on): github_list_issues, github_create_issue.',
    ]);
    const named = await run({ query: 'weather_now' });
    expect(named.output).toBe('weather_now: Current weather.\n\nLoaded for your next request (callable from then on): weather_now.');
    expect(matched).toEqual([
      ['github_list_issues', 'github_create_issue'],
      ['github_list_issues', 'github_create_issue'],
      ['weather_now'],
    ]);
  });

  it('says a weak match that is already callable is callable', async () => {
    const { run, matched } = setup();
    const result = await run({ query: 'list issues wether', detail_level: 'name' });
    expect(result.output).toBe(
      'github_list_issues\ngithub_create_issue\n\nWeak matches (not loaded; search the exact name to load one):\nweather_now\n\n' +
        'Loaded for your next request (callable from then on): github_list_issues, github_create_issue.\nAlready callable: weather_now.',
    );
    expect(result.data?.matches).toContainEqual({ name: 'weather_now', score: 1, exact: false, weak: true, available: 'now' });
    expect(matched).toEqual([['github_list_issues', 'github_create_issue']]);
  });

  it('says so when the catalog is empty', async () => {
    const tool = createSearchToolsTool({ catalog: createToolCatalog([]), availability: () => 'hidden', onMatched: () => undefined });
    const result = await tool.execute(
      { query: 'anything', limit: 5, detail_level: 'name_description', max_output_tokens: 10_000 },
      context,
    );
    expect(result).toEqual({ ok: true, output: 'No tools matched "anything": the catalog is empty.', data: { matches: [], expanded: [] } });
  });

  it('keeps descriptions to one bounded line', () => {
    expect(oneLineDescription('  First line.\nSecond line.')).toBe('First line.');
    const long = oneLineDescription(`${'word '.repeat(80)}end`);
    expect(long.length).toBeLessThanOrEqual(201);
    expect(long.endsWith('…')).toBe(true);
  });
});
