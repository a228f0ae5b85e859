import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeToolHost } from '@toolhost/testing';
import { createToolHost, type ToolHost } from 'toolhost';
import { parseCliOptions } from './cli-options.js';
import { createMcpHttpServer, createMcpServer, toMcpTools, type McpHttpServer, type McpSessionHost } from './index.js';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../../..');
const linux = { platform: 'linux', env: {} };

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function connected(host: Pick<ToolHost, 'tools' | 'call' | 'nextSegment'>, progressIntervalMs?: number): Promise<Client> {
  const client = new Client({ name: 'test', version: '1.0.0' });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await Promise.all([createMcpServer(host, { progressIntervalMs }).connect(serverTransport), client.connect(clientTransport)]);
  return client;
}

describe('annotations and structured results', () => {
  it('marks read-only and destructive tools and declares output schemas', () => {
    const host = createFakeToolHost({ profile: 'advanced', environment: linux });
    const tools = Object.fromEntries(toMcpTools(host).map((tool) => [tool.name, tool]));
    expect(tools.search_tools.annotations).toMatchObject({ readOnlyHint: true });
    expect(tools.code_search.annotations).toMatchObject({ readOnlyHint: true });
    expect(tools.apply_patch.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(tools.exec_command.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    for (const tool of Object.values(tools)) expect(tool.outputSchema?.type).toBe('object');
  });

  it('returns the result data as structuredContent, which the SDK client validates, and error codes alongside', async () => {
    const host = createFakeToolHost({ environment: linux, files: { 'a.txt': 'one\n' }, commands: [{ match: 'echo hi', output: 'hi\n' }] });
    const client = await connected(host);
    try {
      const ran = await client.callTool({ name: 'exec_command', arguments: { cmd: 'echo hi' } });
      expect(ran.structuredContent).toMatchObject({ exit_code: 0, original_token_count: 2 });
      const patched = await client.callTool({ name: 'apply_patch', arguments: { input: '*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+two\n*** End Patch' } });
      expect(patched.structuredContent).toMatchObject({ diff: [{ path: 'a.txt', operation: 'updated', additions: 1, deletions: 1 }] });
      const failed = await client.callTool({ name: 'apply_patch', arguments: { input: '*** Begin Patch\n*** Delete File: gone.txt\n*** End Patch' } });
      expect(failed.isError).toBe(true);
      expect(failed.structuredContent).toMatchObject({ error: { code: 'patch_target_missing' } });
      const found = await client.callTool({ name: 'search_tools', arguments: { query: 'nothing like this' } });
      expect(found.structuredContent).toEqual({ matches: [], expanded: [] });
    } finally {
      await client.close();
    }
  });

  it('declares the weak matches search_tools lists without loading them', async () => {
    const catalog = [{ name: 'slack_post_message', description: 'Posts a message to a Slack channel.', inputSchema: { type: 'object', properties: {} }, handler: () => 'posted' }];
    const client = await connected(createFakeToolHost({ environment: linux, catalog }));
    try {
      const found = await client.callTool({ name: 'search_tools', arguments: { query: 'slak chanel' } });
      expect(found.structuredContent).toEqual({
        matches: [{ name: 'slack_post_message', score: 1, exact: false, weak: true, available: 'not_loaded' }],
        expanded: [],
      });
    } finally {
      await client.close();
    }
  });
});

describe('progress and cancellation on a real host', () => {
  let workspace: string;
  let host: ToolHost;
  beforeAll(() => {
    workspace = mkdtempSync(join(tmpdir(), 'toolhost-mcp-cancel-'));
    host = createToolHost({ workspace, shellProfile: 'unix_like' });
  });
  afterAll(async () => {
    await host.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('sends progress while a command runs, and a cancelled call kills its process', async () => {
    const client = await connected(host, 100);
    try {
      const controller = new AbortController();
      const progress: string[] = [];
      const call = client.callTool(
        { name: 'exec_command', arguments: { cmd: 'echo $$ > pid.txt; exec sleep 30', yield_time_ms: 30_000 } },
        undefined,
        {
          signal: controller.signal,
          onprogress: (update) => {
            progress.push(update.message ?? '');
            if (progress.length === 2) controller.abort();
          },
        },
      );
      await expect(call).rejects.toThrow();
      expect(progress[0]).toMatch(/^exec_command still running after \d+ s$/);
      await expect.poll(() => existsSync(join(workspace, 'pid.txt'))).toBe(true);
      const pid = Number(readFileSync(join(workspace, 'pid.txt'), 'utf8'));
      await expect.poll(() => isAlive(pid), { timeout: 10_000 }).toBe(false);
    } finally {
      await client.close();
    }
  });
});

describe('streamable HTTP', () => {
  let server: McpHttpServer;
  let url: URL;
  const closed: number[] = [];
  let made = 0;

  beforeAll(async () => {
    server = createMcpHttpServer({
      token: 'secret-token',
      createHost: () => {
        const id = ++made;
        const fake = createFakeToolHost({ environment: linux, commands: [{ match: 'whoami', output: `session ${id}\n` }] });
        const host: McpSessionHost = { get tools() { return fake.tools; }, call: fake.call, nextSegment: fake.nextSegment, close: async () => { closed.push(id); await fake.close(); } };
        return host;
      },
    });
    const address = await server.listen(0, '127.0.0.1');
    url = new URL(`http://127.0.0.1:${address.port}/mcp`);
  });
  afterAll(async () => {
    await server?.close();
  });

  const client = async (token = 'secret-token') => {
    const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${token}` } } });
    const mcp = new Client({ name: 'http-test', version: '1.0.0' });
    await mcp.connect(transport);
    return { mcp, transport };
  };

  it('answers 401 without the bearer token', async () => {
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const none = await fetch(url, { method: 'POST', headers, body: JSON.stringify(initialize) });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const wrong = await fetch(url, { method: 'POST', headers: { ...headers, authorization: 'Bearer nope' }, body: JSON.stringify(initialize) });
    expect(wrong.status).toBe(401);
    await expect(client('nope')).rejects.toThrow();
    expect(made).toBe(0);
  });

  it('serves several sessions at once, each with its own host, and a DELETE ends one', async () => {
    const first = await client();
    const second = await client();
    try {
      expect(server.sessionIds()).toHaveLength(2);
      const [a, b] = await Promise.all([
        first.mcp.callTool({ name: 'exec_command', arguments: { cmd: 'whoami' } }),
        second.mcp.callTool({ name: 'exec_command', arguments: { cmd: 'whoami' } }),
      ]);
      expect((a.content as Array<{ text: string }>)[0].text).toMatch(/Output:\nsession 1\n$/);
      expect((b.content as Array<{ text: string }>)[0].text).toMatch(/Output:\nsession 2\n$/);
      await first.transport.terminateSession();
      await expect.poll(() => closed).toEqual([1]);
      expect(server.sessionIds()).toEqual([second.transport.sessionId]);
      const stale = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: 'Bearer secret-token', 'mcp-session-id': first.transport.sessionId ?? 'x' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
      });
      expect(stale.status).toBe(404);
    } finally {
      await first.mcp.close();
      await second.mcp.close();
    }
  });
});

describe('toolhost-mcp --http', () => {
  let child: ChildProcess | undefined;
  let workspace: string;
  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child?.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(workspace, { recursive: true, force: true });
  });

  it('serves a workspace over HTTP with a token file', { timeout: 120_000 }, async () => {
    workspace = mkdtempSync(join(tmpdir(), 'toolhost-mcp-http-'));
    writeFileSync(join(workspace, 'token'), 'file-token\n');
    child = spawn(process.execPath, ['--conditions=@toolhost/source', '--import', 'tsx', join(here, 'cli.ts'), '--workspace', workspace, '--http', '127.0.0.1:0', '--token-file', join(workspace, 'token')], {
      cwd: repoRoot,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const port = await new Promise<number>((resolvePort, reject) => {
      let stderr = '';
      child?.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        const match = /listening on http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(stderr);
        if (match) resolvePort(Number(match[1]));
      });
      child?.once('exit', (code) => reject(new Error(`toolhost-mcp exited with ${code}: ${stderr}`)));
    });
    const endpoint = new URL(`http://127.0.0.1:${port}/mcp`);
    expect((await fetch(endpoint, { method: 'POST', body: '{}' })).status).toBe(401);
    const transport = new StreamableHTTPClientTransport(endpoint, { requestInit: { headers: { authorization: 'Bearer file-token' } } });
    const mcp = new Client({ name: 'cli-http', version: '1.0.0' });
    await mcp.connect(transport);
    try {
      const created = await mcp.callTool({ name: 'apply_patch', arguments: { input: '*** Begin Patch\n*** Add File: hello.txt\n+over http\n*** End Patch' } });
      expect(created.isError).toBe(false);
      expect(readFileSync(join(workspace, 'hello.txt'), 'utf8')).toBe('over http\n');
      await transport.terminateSession();
    } finally {
      await mcp.close();
    }
  });

  it('parses the HTTP options and rejects incomplete ones', () => {
    const at = (base: string, path: string) => resolve(base, path);
    expect(parseCliOptions(['--http', '127.0.0.1:8765', '--token', 't'], '/w', at)).toMatchObject({ http: { hostname: '127.0.0.1', port: 8765 }, token: 't' });
    expect(parseCliOptions(['--http', '[::1]:80', '--token-file', 'tok'], '/w', at)).toMatchObject({ http: { hostname: '::1', port: 80 }, tokenFile: '/w/tok' });
    expect(parseCliOptions(['--http', '127.0.0.1:8765'], '/w', at)).toEqual({ error: '--http needs exactly one of --token T or --token-file F' });
    expect(parseCliOptions(['--http', 'localhost'], '/w', at)).toEqual({ error: '--http must be HOST:PORT (for example 127.0.0.1:8765), got localhost' });
    expect(parseCliOptions(['--token', 't'], '/w', at)).toEqual({ error: '--token and --token-file apply only with --http' });
  });
});
