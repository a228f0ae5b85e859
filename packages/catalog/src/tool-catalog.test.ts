import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import type { CatalogEntry } from './catalog-entry.js';
import { createToolCatalog } from './tool-catalog.js';

function entry(name: string, description: string, extra: Partial<CatalogEntry> = {}): CatalogEntry {
  return { name, description, inputSchema: { type: 'object', properties: {} }, handler: () => 'ok', ...extra };
}

const ENTRIES = [
  entry('github_create_issue', 'Opens a new issue in a GitHub repository.'),
  entry('github_list_issues', 'Lists issues of a GitHub repository.'),
  entry('jira_create_issue', 'Creates a Jira ticket in a project.'),
  entry('slack_post_message', 'Posts a message to a Slack channel.'),
  entry('postgres_query', 'Runs SQL against PostgreSQL.', {
    inputSchema: z.object({ sql: z.string().describe('SELECT statement'), row_limit: z.int().optional() }),
  }),
];

const names = (matches: { entry: CatalogEntry }[]) => matches.map((match) => match.entry.name);

describe('createToolCatalog', () => {
  it('ranks by name, description, parameters and tags', () => {
    const catalog = createToolCatalog(ENTRIES);
    expect(names(catalog.search('create an issue on github', 5))[0]).toBe('github_create_issue');
    expect(names(catalog.search('post to a slack channel', 5))[0]).toBe('slack_post_message');
    // A parameter description is searchable too (zod schema).
    expect(names(catalog.search('select statement', 5))[0]).toBe('postgres_query');
    const tagged = createToolCatalog([...ENTRIES, entry('pager_page', 'Wakes someone up.', { tags: ['on-call', 'incidents'] })]);
    expect(names(tagged.search('incidents', 5))).toEqual(['pager_page']);
  });

  it('matches prefixes and typos', () => {
    const catalog = createToolCatalog(ENTRIES);
    expect(names(catalog.search('postgr', 5))[0]).toBe('postgres_query');
    expect(names(catalog.search('slakc mesage', 5))[0]).toBe('slack_post_message');
  });

  it('puts exact names first, in query order, whatever the limit', () => {
    const catalog = createToolCatalog(ENTRIES);
    const matches = catalog.search('slack_post_message, github_list_issues', 1);
    expect(names(matches)).toEqual(['slack_post_message', 'github_list_issues']);
    expect(matches.every((match) => match.exact)).toBe(true);
    // Other spellings of a name select it too; plain text after the names fills up to the limit.
    expect(names(catalog.search('SlackPostMessage jira', 3))).toEqual(['slack_post_message', 'jira_create_issue']);
    expect(names(catalog.search('`github.create-issue`', 5))).toEqual(['github_create_issue']);
    expect(names(catalog.search('GitHub.create-issue', 5))).toEqual(['github_create_issue']);
  });

  it('orders ties by name and gives the same result every time', () => {
    const twins = ['b_tool', 'a_tool', 'c_tool'].map((name) => entry(name, 'Exports the weekly report.'));
    const catalog = createToolCatalog(twins);
    const first = catalog.search('weekly report', 5);
    expect(names(first)).toEqual(['a_tool', 'b_tool', 'c_tool']);
    expect(new Set(first.map((match) => match.score)).size).toBe(1);
    const reversed = createToolCatalog([...twins].reverse());
    expect(reversed.search('weekly report', 5)).toEqual(first);
  });

  it('adds and removes entries incrementally', () => {
    const catalog = createToolCatalog(ENTRIES);
    const strong = (query: string) => catalog.search(query, 5).filter((match) => !match.weak);
    expect(strong('kubernetes pods')).toEqual([]);
    catalog.add(entry('k8s_get_pods', 'Lists Kubernetes pods.'));
    expect(names(strong('kubernetes pods'))).toEqual(['k8s_get_pods']);
    expect(names(catalog.search('k8s_get_pods', 5))).toEqual(['k8s_get_pods']);
    expect(catalog.remove('k8s_get_pods')).toBe(true);
    expect(catalog.remove('k8s_get_pods')).toBe(false);
    expect(strong('kubernetes pods')).toEqual([]);
    expect(names(catalog.search('kubernetes pods', 25))).not.toContain('k8s_get_pods');
    expect(names(catalog.search('k8s_get_pods', 25))).not.toContain('k8s_get_pods');
    expect(catalog.get('k8s_get_pods')).toBeUndefined();
    // The name can be registered again.
    catalog.add(entry('k8s_get_pods', 'Lists Kubernetes pods again.'));
    expect(names(catalog.search('kubernetes', 5))).toEqual(['k8s_get_pods']);
    expect(catalog.list().map((item) => item.name)).toEqual([...ENTRIES.map((item) => item.name), 'k8s_get_pods']);
  });

  it('rejects invalid and duplicate entries without adding any of a bad batch', () => {
    const catalog = createToolCatalog(ENTRIES);
    expect(() => catalog.add(entry('bad name', 'x'))).toThrow(/must match/);
    // Dots are refused: OpenAI and Anthropic accept only letters, digits, "_" and "-" in tool names.
    expect(() => catalog.add(entry('aws.s3.get_object', 'x'))).toThrow(expect.objectContaining({ code: 'invalid_options' }));
    expect(() => catalog.add(entry('slack_post_message', 'again'))).toThrow(expect.objectContaining({ code: 'duplicate_tool' }));
    expect(() => catalog.add(entry('slack_post_message', 'again'))).toThrow(/already registered/);
    expect(() => catalog.add([entry('one_tool', 'x'), entry('one_tool', 'y')])).toThrow(/listed twice/);
    expect(() => catalog.add({ ...entry('no_handler', 'x'), handler: undefined as never })).toThrow(/handler/);
    expect(() => catalog.add([entry('good_tool', 'x'), entry('bad tool', 'y')])).toThrow(/must match/);
    expect(() => catalog.add(entry('tagged_tool', 'x', { tags: 'a,b' as never }))).toThrow(/tags/);
    expect(catalog.get('one_tool')).toBeUndefined();
    expect(catalog.get('good_tool')).toBeUndefined();
    expect(catalog.list()).toHaveLength(ENTRIES.length);
  });

  it('marks weak a tool that no word reaches as written, only through a typo correction or a completion', () => {
    const catalog = createToolCatalog(ENTRIES);
    const weakness = (query: string, limit = 5) => catalog.search(query, limit).map((match) => [match.entry.name, match.weak]);
    expect(weakness('slak chanel')).toEqual([['slack_post_message', true]]);
    expect(weakness('chan')).toEqual([['slack_post_message', true]]);
    // A swap of two letters is the word as written; "sql" is written.
    expect(weakness('slakc mesage')).toEqual([['slack_post_message', false]]);
    expect(weakness('postgress sql querry runner')).toEqual([['postgres_query', false]]);
    // Weak matches come after the others, whatever their score, and only fill the places the others leave.
    expect(weakness('jira mesage')).toEqual([
      ['jira_create_issue', false],
      ['slack_post_message', true],
    ]);
    expect(weakness('jira mesage', 1)).toEqual([['jira_create_issue', false]]);
    expect(catalog.search('jira mesage', 5).map((match) => match.score)).toEqual([1, 1]);
  });

  it('falls back to the nearest spellings, marked weak, when no word reaches any tool, and lists no tool that is not near', () => {
    const catalog = createToolCatalog(ENTRIES);
    // Two edits from "issues": beyond the word ranking's typo distance for a word of six letters, within the fallback's.
    const near = catalog.search('isseus', 5);
    expect(near.map((match) => [match.entry.name, match.weak, match.exact, match.score])).toEqual([
      ['github_list_issues', true, false, 1],
      ['github_create_issue', true, false, 0.984],
      ['jira_create_issue', true, false, 0.555],
    ]);
    expect(catalog.search('isseus', 1).map((match) => match.entry.name)).toEqual(['github_list_issues']);
    expect(catalog.search('zzzz qqqq', 3)).toEqual([]);
    // Stop words only: no word to match or to spell.
    expect(catalog.search('the of and', 5)).toEqual([]);
    expect(createToolCatalog([]).search('anything', 5)).toEqual([]);
  });

  it('ranks a description that says every query word above a name that says one', () => {
    const catalog = createToolCatalog([
      entry('pagerduty_trigger_incident', 'Trigger a PagerDuty incident that pages the on-call responder.'),
      entry('notion_create_page', 'Create a page in a Notion workspace.'),
      entry('twilio_make_call', 'Place a phone call with Twilio.'),
    ]);
    expect(names(catalog.search('pages on-call', 3))[0]).toBe('pagerduty_trigger_incident');
  });

  it('weighs the object of a request, not only its verb', () => {
    const catalog = createToolCatalog([
      entry('github_create_branch', 'Create a new branch in a GitHub repository.'),
      entry('github_create_pull_request', 'Open a new pull request from a head branch into a base branch.'),
      entry('notion_create_page', 'Create a page in a Notion workspace.'),
      entry('browser_take_screenshot', 'Take a screenshot of the current web page.'),
    ]);
    expect(names(catalog.search('open a PR for my branch', 2))[0]).toBe('github_create_pull_request');
    expect(names(catalog.search('take a picture of the web page', 2))[0]).toBe('browser_take_screenshot');
  });
});
