// An MCP client completes the scripted session against toolhost-mcp (real host, stdio child) and the fake host (in memory).
import { rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { createMcpServer } from '@toolhost/mcp';
import { SESSION, createFakeSessionHost, createSessionFolder, expectSessionOutputs, normalizeOutput } from './session-script.js';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../..');

async function runSession(client: Client, changed: () => number): Promise<string[]> {
  const outputs: string[] = [];
  for (const call of SESSION) {
    if (call.name === 'github_create_issue') {
      await expect.poll(changed).toBe(1);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('github_create_issue');
    }
    const result = await client.callTool({ name: call.name, arguments: call.args });
    expect(result.isError).toBe(false);
    outputs.push((result.content as Array<{ type: string; text: string }>)[0].text);
  }
  return outputs;
}

function newClient(): { client: Client; changed: () => number } {
  const client = new Client({ name: 'e2e', version: '1.0.0' });
  let count = 0;
  client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
    count += 1;
  });
  return { client, changed: () => count };
}

describe('MCP client: scripted session', () => {
  it('completes against toolhost-mcp and the fake host with the same outputs', { timeout: 120_000 }, async () => {
    const folder = createSessionFolder();
    const realSide = newClient();
    const fakeSide = newClient();
    const fake = createFakeSessionHost();
    try {
      await realSide.client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [
            '--conditions=@toolhost/source',
            '--import',
            'tsx',
            join(repoRoot, 'packages/mcp/src/cli.ts'),
            '--workspace',
            folder,
            '--profile',
            'advanced',
            '--shell-profile',
            'unix_like',
            '--catalog',
            join(repoRoot, 'packages/mcp/src/__fixtures__/catalog.ts'),
          ],
          cwd: repoRoot,
          stderr: 'pipe',
        }),
      );
      const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
      await createMcpServer(fake).connect(serverTransport);
      await fakeSide.client.connect(clientTransport);
      const realOutputs = await runSession(realSide.client, realSide.changed);
      const fakeOutputs = await runSession(fakeSide.client, fakeSide.changed);
      expectSessionOutputs(realOutputs);
      expectSessionOutputs(fakeOutputs);
      expect(fakeOutputs.map(normalizeOutput)).toEqual(realOutputs.map(normalizeOutput));
      expect(fake.files()['greeting.txt']).toBe('hello toolhost\n');
    } finally {
      await realSide.client.close();
      await fakeSide.client.close();
      await fake.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
