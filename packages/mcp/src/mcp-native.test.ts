import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
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
import {
  createMcpHttpServer,
  createMcpServer,
  toMcpTools,
  type McpHttpServer,
  type McpSessionEndReason,
  type McpSessionHost,
} from './index.js';

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

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
};
const jsonHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** One HTTP request through node:http, which (unlike fetch) sends the Host header it is given. */
function rawRequest(url: URL, headers: Record<string, string>, body = JSON.stringify(initialize), method = 'POST'): Promise<RawResponse> {
  return new Promise((resolveResponse, reject) => {
    const req = httpRequest(url, { method, headers: { ...jsonHeaders, ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolveResponse({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

const rpcError = (message: string) => JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });

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
    expect(tools.search_tools.annotations).toEqual({ readOnlyHint: true, idempotentHint: true, openWorldHint: false });
    expect(tools.code_search.annotations).toEqual({ readOnlyHint: true, idempotentHint: true, openWorldHint: false });
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
      const patched = await client.callTool({
        name: 'apply_patch',
        arguments: { input: '*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+two\n*** End Patch' },
      });
      expect(patched.structuredContent).toMatchObject({ diff: [{ path: 'a.txt', operation: 'updated', additions: 1, deletions: 1 }] });
      const failed = await client.callTool({
        name: 'apply_patch',
        arguments: { input: '*** Begin Patch\n*** Delete File: gone.txt\n*** End Patch' },
      });
      expect(failed.isError).toBe(true);
      expect(failed.structuredContent).toMatchObject({ error: { code: 'patch_target_missing' } });
      const found = await client.callTool({ name: 'search_tools', arguments: { query: 'nothing like this' } });
      expect(found.structuredContent).toEqual({ matches: [], expanded: [] });
    } finally {
      await client.close();
    }
  });

  it('declares the weak matches search_tools lists without loading them', async () => {
    const catalog = [
      {
        name: 'slack_post_message',
        description: 'Posts a message to a Slack channel.',
        inputSchema: { type: 'object', properties: {} },
        handler: () => 'posted',
      },
    ];
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
        const host: McpSessionHost = {
          get tools() {
            return fake.tools;
          },
          call: (name, args, options) => fake.call(name, args, options),
          nextSegment: () => fake.nextSegment(),
          close: async () => {
            closed.push(id);
            await fake.close();
          },
        };
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

  it('answers 401 without the bearer token, with the RFC 6750 challenge for each case', async () => {
    const none = await rawRequest(url, {});
    expect([none.status, none.headers['www-authenticate'], none.body]).toEqual([
      401,
      'Bearer realm="toolhost-mcp"',
      rpcError('Unauthorized: send Authorization: Bearer <token>'),
    ]);
    const basic = await rawRequest(url, { authorization: 'Basic c2VjcmV0LXRva2Vu' });
    expect([basic.status, basic.headers['www-authenticate']]).toEqual([401, 'Bearer realm="toolhost-mcp"']);
    const wrong = await rawRequest(url, { authorization: 'Bearer nope' });
    expect([wrong.status, wrong.headers['www-authenticate'], wrong.body]).toEqual([
      401,
      'Bearer realm="toolhost-mcp", error="invalid_token", error_description="Unauthorized: the bearer token is wrong"',
      rpcError('Unauthorized: the bearer token is wrong'),
    ]);
    const empty = await rawRequest(url, { authorization: 'Bearer ' });
    expect([empty.status, empty.headers['www-authenticate'], empty.body]).toEqual([
      400,
      'Bearer realm="toolhost-mcp", error="invalid_request", error_description="Bad request: the Authorization header names Bearer but carries no token"',
      rpcError('Bad request: the Authorization header names Bearer but carries no token'),
    ]);
    await expect(client('nope')).rejects.toThrow();
    expect(made).toBe(0);
  });

  it('answers 403 to a foreign Origin or a non-loopback Host before anything else, and opens no session', async () => {
    const auth = { authorization: 'Bearer secret-token' };
    const before = made;
    for (const origin of [
      'https://evil.example',
      'null',
      'http://localhost.evil.example',
      'file://localhost',
      'http://127.0.0.1.evil.example:8080',
    ]) {
      const refused = await rawRequest(url, { ...auth, origin });
      expect([refused.status, refused.body], origin).toEqual([
        403,
        rpcError(`Forbidden: Origin ${origin} is not allowed (allow it with --allow-origin or allowedOrigins)`),
      ]);
    }
    for (const host of ['evil.example', `evil.example:${url.port}`, `localhost.evil.example:${url.port}`, '10.0.0.1']) {
      const refused = await rawRequest(url, { ...auth, host });
      expect([refused.status, refused.body], host).toEqual([
        403,
        rpcError(`Forbidden: Host ${host} is not a loopback name (DNS rebinding protection)`),
      ]);
    }
    expect((await rawRequest(url, { origin: 'https://evil.example' })).status).toBe(403);
    expect(made).toBe(before);
    expect(server.sessionIds()).toEqual([]);
  });

  it('serves no Origin and loopback Origins and Hosts on any port', async () => {
    const auth = { authorization: 'Bearer secret-token' };
    const accepted: Array<Record<string, string>> = [
      {},
      { origin: 'http://localhost:6274' },
      { origin: 'https://localhost' },
      { origin: 'http://127.0.0.1:3000' },
      { origin: 'http://[::1]:8080' },
      { host: `localhost:${url.port}` },
      { host: `[::1]:${url.port}` },
      { host: `127.0.0.1:${url.port}`, origin: 'http://localhost:5173' },
    ];
    for (const headers of accepted) {
      const response = await rawRequest(url, { ...auth, ...headers });
      expect(response.status, JSON.stringify(headers)).toBe(200);
      const id = response.headers['mcp-session-id'] as string;
      expect((await rawRequest(url, { ...auth, 'mcp-session-id': id }, '', 'DELETE')).status).toBe(200);
    }
    expect(server.sessionIds()).toEqual([]);
    await expect.poll(() => closed.length).toBe(made);
  });

  it('serves an allowed Origin besides the loopback ones, and refuses malformed allowedOrigins', async () => {
    const allowing = createMcpHttpServer({
      token: 't',
      allowedOrigins: ['https://app.example/', 'http://tools.example:8080'],
      createHost: () => createFakeToolHost({ environment: linux }),
    });
    const address = await allowing.listen(0, '127.0.0.1');
    const endpoint = new URL(`http://127.0.0.1:${address.port}/mcp`);
    try {
      const statuses: number[] = [];
      for (const origin of [
        'https://app.example',
        'http://tools.example:8080',
        'https://app.example:8443',
        'http://app.example',
        'http://tools.example',
      ]) {
        statuses.push((await rawRequest(endpoint, { authorization: 'Bearer t', origin })).status);
      }
      expect(statuses).toEqual([200, 200, 403, 403, 403]);
    } finally {
      await allowing.close();
    }
    for (const origin of ['*', 'app.example', 'https://app.example/path', 'ftp://app.example']) {
      expect(() => createMcpHttpServer({ token: 't', allowedOrigins: [origin], createHost: () => createFakeToolHost() }), origin).toThrow(
        expect.objectContaining({ name: 'ToolHostError', code: 'invalid_options' }),
      );
    }
  });

  it('serves several sessions at once, each with its own host, and a DELETE ends one', async () => {
    const madeBefore = made;
    const closedBefore = closed.length;
    const first = await client();
    const second = await client();
    try {
      expect(server.sessionIds()).toHaveLength(2);
      const [a, b] = await Promise.all([
        first.mcp.callTool({ name: 'exec_command', arguments: { cmd: 'whoami' } }),
        second.mcp.callTool({ name: 'exec_command', arguments: { cmd: 'whoami' } }),
      ]);
      expect((a.content as Array<{ text: string }>)[0].text).toMatch(new RegExp(`Output:\\nsession ${madeBefore + 1}\\n$`));
      expect((b.content as Array<{ text: string }>)[0].text).toMatch(new RegExp(`Output:\\nsession ${madeBefore + 2}\\n$`));
      await first.transport.terminateSession();
      await expect.poll(() => closed.slice(closedBefore)).toEqual([madeBefore + 1]);
      expect(server.sessionIds()).toEqual([second.transport.sessionId]);
      const stale = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: 'Bearer secret-token',
          'mcp-session-id': first.transport.sessionId ?? 'x',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
      });
      expect(stale.status).toBe(404);
    } finally {
      await first.mcp.close();
      await second.mcp.close();
    }
  });
});

describe('idle HTTP sessions on a real host', () => {
  let workspace: string;
  let server: McpHttpServer;
  let url: URL;
  const ends: Array<[string, McpSessionEndReason]> = [];
  let onEnd: (() => void) | undefined;

  beforeAll(async () => {
    workspace = mkdtempSync(join(tmpdir(), 'toolhost-mcp-idle-'));
    server = createMcpHttpServer({
      token: 'idle-token',
      idleTimeoutMs: 1_500,
      createHost: () => createToolHost({ workspace, shellProfile: 'unix_like' }),
      onSessionEnd: (id, reason) => {
        ends.push([id, reason]);
        onEnd?.();
      },
    });
    const address = await server.listen(0, '127.0.0.1');
    url = new URL(`http://127.0.0.1:${address.port}/mcp`);
  });
  afterAll(async () => {
    await server?.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  it(
    'ends a session idle past the timeout, killing its pipe and PTY processes; a running call keeps it open',
    { timeout: 60_000 },
    async () => {
      const ended = new Promise<void>((resolveEnd) => (onEnd = resolveEnd));
      const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: 'Bearer idle-token' } } });
      const mcp = new Client({ name: 'idle-test', version: '1.0.0' });
      await mcp.connect(transport);
      try {
        const text = (result: Awaited<ReturnType<Client['callTool']>>) => (result.content as Array<{ text: string }>)[0].text;
        // Runs past the idle timeout, so only a running call keeps the session open here.
        const slow = await mcp.callTool(
          { name: 'exec_command', arguments: { cmd: 'sleep 2.5; echo done', yield_time_ms: 10_000 } },
          undefined,
          { timeout: 20_000 },
        );
        expect(text(slow)).toMatch(/Output:\ndone\n$/);
        const pids: number[] = [];
        for (const tty of [false, true]) {
          const started = await mcp.callTool({
            name: 'exec_command',
            arguments: { cmd: 'echo "pid=$$"; exec sleep 1000', tty, yield_time_ms: 300 },
          });
          expect(started.structuredContent).toMatchObject({ session_id: expect.any(Number) });
          pids.push(Number(/pid=(\d+)/.exec(text(started))?.[1]));
        }
        expect(pids.map(isAlive)).toEqual([true, true]);
        expect(ends).toEqual([]);
        await ended;
        expect(ends).toEqual([[transport.sessionId, 'idle']]);
        expect(pids.map(isAlive)).toEqual([false, false]);
        expect(server.sessionIds()).toEqual([]);
        const stale = await rawRequest(
          url,
          { authorization: 'Bearer idle-token', 'mcp-session-id': transport.sessionId ?? 'x' },
          JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
        );
        expect(stale.status).toBe(404);
      } finally {
        await mcp.close();
      }
    },
  );

  it('refuses an idle timeout no timer can hold', () => {
    for (const idleTimeoutMs of [-1, Number.NaN, 2 ** 31]) {
      expect(
        () => createMcpHttpServer({ token: 't', idleTimeoutMs, createHost: () => createFakeToolHost() }),
        String(idleTimeoutMs),
      ).toThrow(expect.objectContaining({ code: 'invalid_options' }));
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
    if (workspace) rmSync(workspace, { recursive: true, force: true });
  });

  it('serves a workspace over HTTP with a token file', { timeout: 120_000 }, async () => {
    workspace = mkdtempSync(join(tmpdir(), 'toolhost-mcp-http-'));
    writeFileSync(join(workspace, 'token'), 'file-token\n');
    child = spawn(
      process.execPath,
      [
        '--conditions=@toolhost/source',
        '--import',
        'tsx',
        join(here, 'cli.ts'),
        '--workspace',
        workspace,
        '--http',
        '127.0.0.1:0',
        '--token-file',
        join(workspace, 'token'),
        '--allow-origin',
        'https://app.example',
        '--idle-timeout',
        '600',
      ],
      {
        cwd: repoRoot,
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
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
    expect((await rawRequest(endpoint, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await rawRequest(endpoint, { origin: 'https://app.example' })).status).toBe(401);
    const transport = new StreamableHTTPClientTransport(endpoint, { requestInit: { headers: { authorization: 'Bearer file-token' } } });
    const mcp = new Client({ name: 'cli-http', version: '1.0.0' });
    await mcp.connect(transport);
    try {
      const created = await mcp.callTool({
        name: 'apply_patch',
        arguments: { input: '*** Begin Patch\n*** Add File: hello.txt\n+over http\n*** End Patch' },
      });
      expect(created.isError).toBe(false);
      expect(readFileSync(join(workspace, 'hello.txt'), 'utf8')).toBe('over http\n');
      await transport.terminateSession();
    } finally {
      await mcp.close();
    }
  });

  it('parses the HTTP options and rejects incomplete ones', () => {
    const at = (base: string, path: string) => resolve(base, path);
    expect(parseCliOptions(['--http', '127.0.0.1:8765', '--token', 't'], '/w', at)).toMatchObject({
      http: { hostname: '127.0.0.1', port: 8765 },
      token: 't',
    });
    expect(parseCliOptions(['--http', '[::1]:80', '--token-file', 'tok'], '/w', at)).toMatchObject({
      http: { hostname: '::1', port: 80 },
      tokenFile: '/w/tok',
    });
    expect(parseCliOptions(['--http', '127.0.0.1:8765'], '/w', at)).toEqual({
      error: '--http needs exactly one of --token T or --token-file F',
    });
    expect(parseCliOptions(['--http', 'localhost'], '/w', at)).toEqual({
      error: '--http must be HOST:PORT (for example 127.0.0.1:8765), got localhost',
    });
    expect(parseCliOptions(['--token', 't'], '/w', at)).toEqual({ error: '--token and --token-file apply only with --http' });
  });

  it('parses --allow-origin (repeatable) and --idle-timeout, and rejects malformed ones', () => {
    const at = (base: string, path: string) => resolve(base, path);
    const http = ['--http', '127.0.0.1:8765', '--token', 't'];
    expect(
      parseCliOptions(
        [...http, '--allow-origin', 'https://app.example/', '--allow-origin', 'HTTP://Tools.Example:8080', '--idle-timeout', '60'],
        '/w',
        at,
      ),
    ).toMatchObject({
      allowedOrigins: ['https://app.example', 'http://tools.example:8080'],
      idleTimeoutMs: 60_000,
    });
    expect(parseCliOptions([...http, '--idle-timeout', '0'], '/w', at)).toMatchObject({ idleTimeoutMs: 0 });
    expect(parseCliOptions([...http, '--idle-timeout', '0.0001'], '/w', at)).toMatchObject({ idleTimeoutMs: 1 });
    expect(parseCliOptions(http, '/w', at)).not.toHaveProperty('idleTimeoutMs');
    expect(parseCliOptions([...http, '--allow-origin', 'app.example'], '/w', at)).toEqual({
      error: '--allow-origin must be an origin like https://app.example or http://host:8080, got app.example',
    });
    expect(parseCliOptions([...http, '--allow-origin', '*'], '/w', at)).toEqual({
      error: '--allow-origin must be an origin like https://app.example or http://host:8080, got *',
    });
    for (const value of ['-1', 'soon', '', '2147484']) {
      expect(parseCliOptions([...http, `--idle-timeout=${value}`], '/w', at)).toEqual({
        error: `--idle-timeout must be a number of seconds from 0 to 2147483, got ${value}`,
      });
    }
    expect(parseCliOptions(['--allow-origin', 'https://app.example'], '/w', at)).toEqual({
      error: '--allow-origin and --idle-timeout apply only with --http',
    });
    expect(parseCliOptions(['--idle-timeout', '5'], '/w', at)).toEqual({
      error: '--allow-origin and --idle-timeout apply only with --http',
    });
  });
});
