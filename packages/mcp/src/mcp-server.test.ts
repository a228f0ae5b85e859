import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeToolHost } from '@toolhost/testing';
import { createToolHost } from 'toolhost';
import { createMcpServer, toMcpTools } from './index.js';
import { parseCliOptions } from './cli-options.js';
import catalog from './__fixtures__/catalog.js';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../../..');
const cli = join(here, 'cli.ts');
const nodeArgs = ['--conditions=@toolhost/source', '--import', 'tsx', cli];

describe('createMcpServer (in memory)', () => {
  it('pins the emitted tool list (advanced)', async () => {
    const host = createFakeToolHost({ profile: 'advanced', shellProfile: 'unix_like', environment: { platform: 'linux', env: {} } });
    for (const tool of toMcpTools(host))
      await expect(JSON.stringify(tool, null, 2) + '\n').toMatchFileSnapshot(`./__pins__/${tool.name}.json`);
  });

  it('serves the fake host: isError results and list_changed after search_tools', async () => {
    const host = createFakeToolHost({ catalog, commands: [{ match: 'echo hi', output: 'hi\n' }] });
    const server = createMcpServer(host);
    const client = new Client({ name: 'test', version: '1.0.0' });
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      changed += 1;
    });
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
    try {
      expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: true });
      const listed = await client.listTools();
      expect(listed.tools).toEqual(toMcpTools(host));
      const ok = await client.callTool({ name: 'exec_command', arguments: { cmd: 'echo hi' } });
      expect(ok.isError).toBe(false);
      expect((ok.content as Array<{ text: string }>)[0].text).toMatch(/Output:\nhi\n$/);
      const bad = await client.callTool({ name: 'exec_command', arguments: { cmd: 'echo hi', max_output_tokens: 0 } });
      expect(bad).toEqual({
        content: [{ type: 'text', text: 'Error [invalid_arguments]: max_output_tokens must be an integer between 1 and 50000' }],
        structuredContent: { error: { code: 'invalid_arguments', message: 'max_output_tokens must be an integer between 1 and 50000' } },
        isError: true,
      });
      await client.callTool({ name: 'search_tools', arguments: { query: 'github issue' } });
      await expect.poll(() => changed).toBe(1);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('github_create_issue');
      const created = await client.callTool({ name: 'github_create_issue', arguments: { title: 'Over MCP' } });
      expect(created.content).toEqual([{ type: 'text', text: 'Created issue "Over MCP" as #1' }]);
      await client.callTool({ name: 'search_tools', arguments: { query: 'github issue' } });
      expect(changed).toBe(1);
    } finally {
      await client.close();
    }
  });
});

describe('toolhost-mcp over stdio', () => {
  let workspace: string;
  let client: Client;
  let changed = 0;

  beforeAll(async () => {
    workspace = mkdtempSync(join(tmpdir(), 'toolhost-mcp-'));
    writeFileSync(join(workspace, 'greeting.txt'), 'hello world\n');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        ...nodeArgs,
        '--workspace',
        workspace,
        '--profile',
        'advanced',
        '--shell-profile',
        'unix_like',
        '--catalog',
        join(here, '__fixtures__/catalog.ts'),
      ],
      cwd: repoRoot,
      stderr: 'pipe',
    });
    client = new Client({ name: 'stdio-test', version: '1.0.0' });
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      changed += 1;
    });
    await client.connect(transport);
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('lists the same tools as createToolHost for the same options', async () => {
    const host = createToolHost({ workspace, profile: 'advanced', shellProfile: 'unix_like', catalog });
    try {
      expect((await client.listTools()).tools).toEqual(toMcpTools(host));
    } finally {
      await host.close();
    }
  });

  it('answers model mistakes with isError results', async () => {
    const legacy = await client.callTool({ name: 'unified_exec', arguments: { cmd: 'ls' } });
    expect(legacy.isError).toBe(true);
    expect((legacy.content as Array<{ text: string }>)[0].text).toMatch(/^Error \[legacy_tool\]/);
    const invalid = await client.callTool({ name: 'code_search', arguments: {} });
    expect(invalid.isError).toBe(true);
    expect((invalid.content as Array<{ text: string }>)[0].text).toContain('missing required field "query"');
  });

  it('notifies tools/list_changed when search_tools expands the set', async () => {
    const search = await client.callTool({ name: 'search_tools', arguments: { query: 'create github issue' } });
    expect(search.isError).toBe(false);
    await expect.poll(() => changed).toBe(1);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(['exec_command', 'write_stdin', 'apply_patch', 'search_tools', 'code_search', 'github_create_issue']);
    const created = await client.callTool({ name: 'github_create_issue', arguments: { title: 'stdio' } });
    expect(created).toEqual({ content: [{ type: 'text', text: 'Created issue "stdio" as #1' }], isError: false });
  });
});

describe('toolhost-mcp command line', () => {
  it('parses its options and rejects bad ones', () => {
    const join2 = (base: string, path: string) => resolve(base, path);
    expect(parseCliOptions([], '/w', join2)).toEqual({
      target: { kind: 'workspace', workspace: '/w' },
      profile: 'default',
      shellProfile: 'auto',
      catalog: undefined,
    });
    expect(parseCliOptions(['--workspace', 'sub', '--profile', 'advanced', '--shell-profile', 'powershell'], '/w', join2)).toMatchObject({
      target: { kind: 'workspace', workspace: '/w/sub' },
      profile: 'advanced',
      shellProfile: 'powershell',
    });
    expect(parseCliOptions(['--profile', 'huge'], '/w', join2)).toEqual({ error: '--profile must be default or advanced, got huge' });
    expect(parseCliOptions(['--bogus'], '/w', join2)).toHaveProperty('error');
  });

  it('exits 2 with usage on a bad option', { timeout: 120_000 }, () => {
    const run = spawnSync(process.execPath, [...nodeArgs, '--shell-profile', 'fish'], {
      cwd: repoRoot,
      encoding: 'utf8',
      input: '',
      timeout: 110_000,
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('--shell-profile must be auto, unix_like or powershell, got fish');
    expect(run.stderr).toContain('Usage: toolhost-mcp');
  });
});
