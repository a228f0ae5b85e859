import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeToolHost } from '@toolhost/testing';
import { createLocalEnvironment, type Environment } from 'toolhost';
import { createMcpHttpServer, type McpHttpServer, type McpSessionEndReason } from './index.js';

const folders: string[] = [];
const servers: McpHttpServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A local environment over a fresh temp folder, recording when it is closed. */
function freshEnvironment(closed: string[]): Environment {
  const root = mkdtempSync(join(tmpdir(), 'toolhost-mcp-env-'));
  folders.push(root);
  const environment = createLocalEnvironment({ root });
  return {
    ...environment,
    close: async () => {
      closed.push(root);
      await environment.close();
    },
  };
}

async function listening(server: McpHttpServer): Promise<URL> {
  servers.push(server);
  const address = await server.listen(0, '127.0.0.1');
  return new URL(`http://127.0.0.1:${address.port}/mcp`);
}

async function connect(url: URL): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: 'Bearer env-token' } } });
  const client = new Client({ name: 'environment-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

const textOf = (result: Awaited<ReturnType<Client['callTool']>>) => (result.content as Array<{ text: string }>)[0].text;

describe('createMcpHttpServer with an environment per session', () => {
  it('starts one environment per session with the host options, and closes it when the session ends', { timeout: 60_000 }, async () => {
    const closed: string[] = [];
    const started: string[] = [];
    const ends: Array<[string, McpSessionEndReason]> = [];
    const url = await listening(
      createMcpHttpServer({
        token: 'env-token',
        environment: () => {
          const environment = freshEnvironment(closed);
          started.push(environment.workspace.root);
          return environment;
        },
        host: { profile: 'advanced', shellProfile: 'unix_like' },
        onSessionEnd: (id, reason) => ends.push([id, reason]),
      }),
    );
    const first = await connect(url);
    const second = await connect(url);
    expect((await first.client.listTools()).tools.map((tool) => tool.name)).toContain('code_search');
    const pwd = async (client: Client) => textOf(await client.callTool({ name: 'exec_command', arguments: { cmd: 'pwd -P' } }));
    expect(await pwd(first.client)).toMatch(new RegExp(`Output:\\n${started[0]}\\n$`));
    expect(await pwd(second.client)).toMatch(new RegExp(`Output:\\n${started[1]}\\n$`));
    expect(started).toHaveLength(2);
    const firstId = first.transport.sessionId!;
    await first.transport.terminateSession();
    expect(closed).toEqual([started[0]]);
    expect(ends).toEqual([[firstId, 'deleted']]);
    await first.client.close();
    await second.client.close();
  });

  it('tells the model when a call fails because the environment is gone', { timeout: 60_000 }, async () => {
    const closed: string[] = [];
    const url = await listening(
      createMcpHttpServer({ token: 'env-token', environment: () => freshEnvironment(closed), host: { shellProfile: 'unix_like' } }),
    );
    const { client } = await connect(url);
    try {
      const root = folders[0];
      // A model mistake is left as it is: the environment is not suspected.
      const mistake = await client.callTool({ name: 'write_stdin', arguments: { session_id: 4242, chars: '' } });
      expect(textOf(mistake)).toMatch(/^Error \[unknown_session\]/);
      rmSync(root, { recursive: true, force: true });
      const gone = await client.callTool({
        name: 'apply_patch',
        arguments: { input: '*** Begin Patch\n*** Add File: a.txt\n+a\n*** End Patch' },
      });
      expect(gone.isError).toBe(true);
      expect(textOf(gone)).toBe(
        `Error [tool_failed]: The local folder the tools run in cannot be reached: the folder ${root} is gone. This call failed, and every call will until it is back; tell the user.`,
      );
    } finally {
      await client.close();
    }
  });

  it('closes an environment whose host cannot be made, and answers the request with the reason', { timeout: 60_000 }, async () => {
    const closed: string[] = [];
    const url = await listening(
      createMcpHttpServer({ token: 'env-token', environment: () => freshEnvironment(closed), host: { profile: 'huge' as never } }),
    );
    await expect(connect(url)).rejects.toThrow(/Internal error: .*profile/);
    expect(closed).toEqual([folders[0]]);
  });

  it('needs exactly one of createHost and environment; host options only with environment', () => {
    const environment = () => freshEnvironment([]);
    const createHost = () => createFakeToolHost();
    expect(() => createMcpHttpServer({ token: 't' })).toThrow('createMcpHttpServer needs exactly one of createHost or environment');
    expect(() => createMcpHttpServer({ token: 't', createHost, environment })).toThrow(
      'createMcpHttpServer needs exactly one of createHost or environment',
    );
    expect(() => createMcpHttpServer({ token: 't', environment: 'docker' as never })).toThrow(
      "environment must be a function that starts one session's environment",
    );
    expect(() => createMcpHttpServer({ token: 't', createHost, host: { profile: 'advanced' } })).toThrow(
      'host options apply only with environment (createHost makes the whole host)',
    );
  });
});
