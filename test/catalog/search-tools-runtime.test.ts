import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import {
  ToolHostError,
  approximateTokenizer,
  createMemorySpool,
  createMemoryWorkspace,
  maxOutputTokensSchema,
  okResult,
  type ToolImplementation,
} from '@toolhost/core';
import type { CatalogEntry } from '@toolhost/catalog';
import { resolveShellProfile } from '@toolhost/profiles';
import { createToolRuntime } from '@toolhost/runtime';
import { loadRelevanceCatalog } from '../../packages/catalog/src/__fixtures__/load-relevance-catalog.js';

function stubTool(name: string): ToolImplementation {
  return {
    name,
    schema: z.strictObject({ cmd: z.string().optional(), max_output_tokens: maxOutputTokensSchema }),
    execute: async () => okResult(`${name} ran`),
  };
}

function makeRuntime(catalog: CatalogEntry[]) {
  return createToolRuntime({
    profile: 'default',
    guidance: resolveShellProfile('unix_like', { platform: 'linux', env: {} }),
    workspace: createMemoryWorkspace(),
    spool: createMemorySpool(),
    tokenizer: approximateTokenizer,
    implementations: { exec_command: stubTool('exec_command'), write_stdin: stubTool('write_stdin'), apply_patch: stubTool('apply_patch') },
    catalog,
  });
}

const calls: { name: string; args: Record<string, unknown> }[] = [];
const recorded = (entries: CatalogEntry[]) =>
  entries.map((entry) => ({
    ...entry,
    handler: (args: Record<string, unknown>) => {
      calls.push({ name: entry.name, args });
      return `${entry.name} done`;
    },
  }));

const BUILTINS = ['exec_command', 'write_stdin', 'apply_patch', 'search_tools'];
const toolNames = (runtime: ReturnType<typeof makeRuntime>) => runtime.tools.map((tool) => tool.name);

describe('search_tools through the runtime', () => {
  it('expands matches at nextSegment, not before, and makes them callable', async () => {
    const runtime = makeRuntime(recorded(loadRelevanceCatalog()));
    expect(toolNames(runtime)).toEqual(BUILTINS);

    const before = await runtime.call('jira_create_issue', { project_key: 'ENG', summary: 'x', issue_type: 'Bug' });
    expect(before.error?.code).toBe('unknown_tool');
    expect(before.output).toContain('search_tools');

    const search = await runtime.call('search_tools', { query: 'file a bug in jira', limit: 3 });
    expect(search.ok).toBe(true);
    const expanded = search.data?.expanded as string[];
    expect(expanded[0]).toBe('jira_create_issue');
    expect(search.output).toContain(`Loaded for your next request (callable from then on): ${expanded.join(', ')}.`);
    // Still the same request: nothing new is listed or callable yet, and the error says when it will be.
    expect(toolNames(runtime)).toEqual(BUILTINS);
    const early = await runtime.call('jira_create_issue', { project_key: 'ENG', summary: 'x', issue_type: 'Bug' });
    expect(early.error?.code).toBe('unknown_tool');
    expect(early.output).toContain('next request');

    const next = runtime.nextSegment();
    expect(next.map((tool) => tool.name)).toEqual([...BUILTINS, ...expanded]);
    expect(next.find((tool) => tool.name === 'jira_create_issue')?.inputSchema).toMatchObject({
      required: ['project_key', 'summary', 'issue_type'],
      properties: { max_output_tokens: { type: 'integer', minimum: 1, maximum: 50000 } },
    });
    calls.length = 0;
    const created = await runtime.call('jira_create_issue', { project_key: 'ENG', summary: 'Crash on start', issue_type: 'Bug' });
    expect(created).toEqual({ ok: true, output: 'jira_create_issue done' });
    expect(calls).toEqual([{ name: 'jira_create_issue', args: { project_key: 'ENG', summary: 'Crash on start', issue_type: 'Bug' } }]);
    await runtime.close();
  });

  it('validates JSON Schema entries before their handler runs', async () => {
    const runtime = makeRuntime(recorded(loadRelevanceCatalog()));
    await runtime.call('search_tools', { query: 'github_list_issues' });
    runtime.nextSegment();
    calls.length = 0;
    const missing = await runtime.call('github_list_issues', { owner: 'acme' });
    expect(missing.error).toEqual({
      code: 'invalid_arguments',
      message: 'Invalid arguments for github_list_issues: missing required field "repo" (expected string)',
    });
    const badEnum = await runtime.call('github_list_issues', { owner: 'acme', repo: 'web', state: 'merged' });
    expect(badEnum.error?.message).toBe('Invalid arguments for github_list_issues: "state" must be one of "open", "closed", "all"');
    const badType = await runtime.call('github_list_issues', { owner: 'acme', repo: 'web', per_page: '10' });
    expect(badType.error?.message).toBe('Invalid arguments for github_list_issues: "per_page" must be an integer, received string');
    const unknown = await runtime.call('github_list_issues', { owner: 'acme', repo: 'web', status: 'open' });
    expect(unknown.error?.message).toBe(
      'Invalid arguments for github_list_issues: unknown field "status" (accepted: owner, repo, state, labels, assignee, per_page)',
    );
    const budget = await runtime.call('github_list_issues', { owner: 'acme', repo: 'web', max_output_tokens: 0 });
    expect(budget.error?.message).toBe('max_output_tokens must be an integer between 1 and 50000');
    expect(calls).toEqual([]);
    const ok = await runtime.call('github_list_issues', { owner: 'acme', repo: 'web', state: 'open', max_output_tokens: 500 });
    expect(ok.ok).toBe(true);
    expect(calls).toEqual([{ name: 'github_list_issues', args: { owner: 'acme', repo: 'web', state: 'open' } }]);
    await runtime.close();
  });

  it('loads several exact names in one round trip, in query order', async () => {
    const runtime = makeRuntime(loadRelevanceCatalog());
    const search = await runtime.call('search_tools', {
      query: 'slack_upload_file, jira_get_issue github_get_pull_request',
      limit: 2,
      detail_level: 'name',
    });
    expect(search.output).toBe(
      'slack_upload_file\njira_get_issue\ngithub_get_pull_request\n\n' +
        'Loaded for your next request (callable from then on): slack_upload_file, jira_get_issue, github_get_pull_request.',
    );
    expect(runtime.nextSegment().map((tool) => tool.name)).toEqual([
      ...BUILTINS,
      'slack_upload_file',
      'jira_get_issue',
      'github_get_pull_request',
    ]);
    // Searching again for a loaded tool expands nothing new.
    const again = await runtime.call('search_tools', { query: 'jira_get_issue' });
    expect(again.data?.expanded).toEqual([]);
    expect(again.output).toContain('Already callable: jira_get_issue.');
    await runtime.close();
  });

  it('is deterministic: the same calls give the same results and tool order', async () => {
    const run = async () => {
      const runtime = makeRuntime(loadRelevanceCatalog());
      const outputs: string[] = [];
      for (const query of ['kubernetes pod logs', 'postgres', 'send a slack message', 'k8s_get_pods']) {
        outputs.push((await runtime.call('search_tools', { query, limit: 4 })).output);
      }
      const tools = runtime.nextSegment().map((tool) => tool.name);
      await runtime.close();
      return { outputs, tools };
    };
    const first = await run();
    expect(await run()).toEqual(first);
    expect(first.tools.slice(0, 4)).toEqual(BUILTINS);
    expect(new Set(first.tools).size).toBe(first.tools.length);
  });

  it('serves each detail level with the runtime budget applied', async () => {
    const runtime = makeRuntime(loadRelevanceCatalog());
    const names = await runtime.call('search_tools', { query: 'docker containers', detail_level: 'name', limit: 3 });
    expect(names.output.split('\n\n')[0].split('\n')).toHaveLength(3);
    expect(names.output.split('\n\n')[0]).not.toContain(':');
    const described = await runtime.call('search_tools', { query: 'docker containers', limit: 3 });
    for (const line of described.output.split('\n\n')[0].split('\n')) expect(line).toMatch(/^docker_\w+: .+\.$/);
    const full = await runtime.call('search_tools', { query: 'docker_run_container', detail_level: 'full' });
    const schemaLine = full.output.split('\n').find((line) => line.startsWith('input_schema: '))!;
    expect(JSON.parse(schemaLine.slice('input_schema: '.length))).toMatchObject({ type: 'object', required: ['image'] });
    const tight = await runtime.call('search_tools', { query: 'github', detail_level: 'full', limit: 25, max_output_tokens: 200 });
    expect(approximateTokenizer.count(tight.output)).toBeLessThanOrEqual(200);
    expect(tight.data).toMatchObject({ truncated: true });
    await runtime.close();
  });

  it('lists non-deferred entries from the start and never expands them', async () => {
    const weather: CatalogEntry = {
      name: 'weather_now',
      description: 'Current weather for a city.',
      inputSchema: z.object({ city: z.string() }),
      handler: (args) => `sunny in ${String(args.city)}`,
      deferred: false,
    };
    const runtime = makeRuntime([weather, ...loadRelevanceCatalog().slice(0, 20)]);
    expect(toolNames(runtime)).toEqual([...BUILTINS, 'weather_now']);
    expect(await runtime.call('weather_now', { city: 'Oslo' })).toEqual({ ok: true, output: 'sunny in Oslo' });
    const strict = await runtime.call('weather_now', { city: 'Oslo', country: 'NO' });
    expect(strict.error?.code).toBe('invalid_arguments');
    const search = await runtime.call('search_tools', { query: 'weather in a city' });
    expect(search.data?.expanded).toEqual([]);
    expect(search.output).toContain('Already callable: weather_now.');
    expect(toolNames(runtime)).toEqual([...BUILTINS, 'weather_now']);
    await runtime.close();
  });

  it('adds and removes catalog entries at run time', async () => {
    const runtime = makeRuntime(loadRelevanceCatalog());
    const entry: CatalogEntry = {
      name: 'acme_deploy_service',
      description: 'Deploys a service to the ACME platform.',
      inputSchema: { type: 'object', properties: { service: { type: 'string' } }, required: ['service'] },
      handler: (args) => `deployed ${String(args.service)}`,
    };
    expect((await runtime.call('search_tools', { query: 'acme platform deploy' })).output).not.toContain('acme_deploy_service');
    runtime.catalog.add(entry);
    const found = await runtime.call('search_tools', { query: 'acme platform deploy', limit: 1 });
    expect(found.data?.expanded).toEqual(['acme_deploy_service']);
    runtime.nextSegment();
    expect(await runtime.call('acme_deploy_service', { service: 'api' })).toEqual({ ok: true, output: 'deployed api' });

    expect(runtime.catalog.remove('acme_deploy_service')).toBe(true);
    expect(toolNames(runtime)).not.toContain('acme_deploy_service');
    expect((await runtime.call('acme_deploy_service', { service: 'api' })).error?.code).toBe('unknown_tool');
    const gone = await runtime.call('search_tools', { query: 'acme_deploy_service' });
    expect((gone.data?.matches as { name: string }[]).map((match) => match.name)).not.toContain('acme_deploy_service');
    // Registered again, it is hidden until found again.
    runtime.catalog.add(entry);
    expect(toolNames(runtime)).not.toContain('acme_deploy_service');
    expect(() => runtime.catalog.add({ ...entry, name: 'exec_command' })).toThrow(ToolHostError);
    expect(() => runtime.catalog.add({ ...entry, name: 'unified_exec' })).toThrow(ToolHostError);
    expect(runtime.catalog.get('exec_command')).toBeUndefined();
    await runtime.close();
  });

  it('loads nothing for a request no tool serves and lists near spellings as weak matches; searching one by name loads it', async () => {
    const runtime = makeRuntime(loadRelevanceCatalog().filter((entry) => entry.name !== 'weather_forecast'));
    const nonsense = await runtime.call('search_tools', { query: 'xyzzy plugh frobnicate', detail_level: 'name' });
    expect(nonsense.output).toBe(
      'No tool matched "xyzzy plugh frobnicate". To search again, name the action and the service, e.g. "create jira issue".\n\n' +
        'Weak matches (not loaded; search the exact name to load one):\ndocker_push_image\ngithub_push_files',
    );
    expect(nonsense.data?.expanded).toEqual([]);
    const rain = await runtime.call('search_tools', { query: 'will it rain in Paris' });
    expect(rain.output).toBe(
      'No tool matched "will it rain in Paris". To search again, name the action and the service, e.g. "create jira issue".\n\n' +
        'Weak matches (not loaded; search the exact name to load one):\nweb_fetch: Fetches a web page by URL and returns its main content as Markdown.',
    );
    expect(runtime.nextSegment().map((tool) => tool.name)).toEqual(BUILTINS);
    const named = await runtime.call('search_tools', { query: 'web_fetch' });
    expect(named.data?.expanded).toEqual(['web_fetch']);
    expect(runtime.nextSegment().map((tool) => tool.name)).toEqual([...BUILTINS, 'web_fetch']);
    await runtime.close();
  });

  it('tells the model to use search_tools for a tool that is not loaded', async () => {
    const runtime = makeRuntime(loadRelevanceCatalog());
    const result = await runtime.call('stripe_refund_payment', { payment_intent: 'pi_1' });
    expect(result.error).toEqual({
      code: 'unknown_tool',
      message:
        'stripe_refund_payment is not loaded. Call search_tools with {"query":"stripe_refund_payment"} first; it becomes callable in the next request.',
    });
    const nothing = await runtime.call('no_such_tool', {});
    expect(nothing.output).toContain('Use search_tools to find others.');
    await runtime.close();
  });
});
